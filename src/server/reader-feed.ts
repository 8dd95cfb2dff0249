import 'server-only';
import { ATOM_CONTENT_TYPE } from '@/engine/feed/atom';
import { readerFeed } from '@/engine/reader/feed';
import { getEngine } from './engine';
import { readerOrigin } from './reader';

/**
 * GET /<plural>/feed.xml: the entity's Atom feed, as anyone may read it (no session is read, so
 * every reader gets the same document). Links are absolute: NINEFOLD_PUBLIC_URL where it is set,
 * else the address the request came to. 404 for an entity without a feed.
 */
export async function readerFeedResponse(request: Request, plural: string): Promise<Response> {
  const engine = await getEngine();
  const entity = Object.hasOwn(engine.model.entitiesByPlural, plural) ? engine.model.entitiesByPlural[plural] : undefined;
  const origin = readerOrigin(request.headers);
  const xml = entity ? await readerFeed(engine.ops, engine.model, entity, origin) : null;
  if (xml === null)
    return new Response('Not found.\n', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  // Feed readers poll: a minute's cache spares the database without keeping news back long.
  return new Response(xml, { headers: { 'Content-Type': ATOM_CONTENT_TYPE, 'Cache-Control': 'public, max-age=60' } });
}
