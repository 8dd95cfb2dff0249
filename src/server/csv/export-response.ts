import 'server-only';
import { listFor } from '@/engine/spec/screens/for-roles';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import type { ListQuery } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { Engine } from '@/engine/engine';
import type { EntityModel } from '@/engine/spec/model';
import { matchRoute, mayOpenRoute } from '@/engine/spec/screens/routes';
import { columnChoices } from '@/engine/views/list-state';
import { getEngine } from '@/server/engine';
import { parseListParams, toListQuery, type RawSearchParams } from '@/server/list-query';
import { requireActor } from '@/server/session';
import { listColumns } from '@/ui/columns';
import { exportFileName, listCsv } from './export-csv';

/** A refusal as a short plain-text answer: what a browser shows for a download that failed. */
function refusal(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

function rawSearch(url: URL): RawSearchParams {
  const raw: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) (raw[key] ??= []).push(value);
  return raw;
}

/** What a custom route's list fixes (`list=<its address>`): null when the address is no list of this entity. */
function routeList(
  engine: Engine,
  entity: EntityModel,
  actor: Actor,
  address: string,
): { query: ListQuery; columns: readonly string[] | null } | 'not found' | 'forbidden' {
  let segments: string[];
  try {
    segments = address
      .split('/')
      .filter((s) => s !== '')
      .map(decodeURIComponent);
  } catch {
    return 'not found';
  }
  const match = matchRoute(engine.model.routes, segments);
  const show = match?.route.show;
  if (!match || show?.kind !== 'list' || show.entity !== entity.name) return 'not found';
  if (!mayOpenRoute(match.route, actor.roles)) return 'forbidden';
  return {
    query: { ...(show.sort ? { sort: show.sort } : {}), ...(show.where ? { where: show.where, params: match.params } : {}) },
    columns: show.columns,
  };
}

/**
 * GET /<plural>/export.csv?<list parameters>[&list=<custom route address>]: the list as the
 * signed-in viewer sees it, all of its pages, as a CSV download (src/server/csv/export-csv.ts).
 * A visitor is sent to sign in and back; a list the viewer may not see is 403, an unknown one
 * 404, parameters ops refuse 422 — each with the catalogue's words, before any byte of a file.
 */
export async function exportListResponse(request: Request, plural: string): Promise<Response> {
  const engine = await getEngine();
  const entity = Object.hasOwn(engine.model.entitiesByPlural, plural) ? engine.model.entitiesByPlural[plural] : undefined;
  const notFound = () => refusal(404, 'This page or record does not exist, or you cannot see it.');
  if (!entity) return notFound();
  const url = new URL(request.url);
  const actor = await requireActor(`${url.pathname}${url.search}`);

  const list = url.searchParams.get('list');
  const fixed = list === null ? { query: {}, columns: null } : routeList(engine, entity, actor, list);
  if (fixed === 'not found') return notFound();
  if (fixed === 'forbidden') return refusal(403, 'You are not allowed to see this list.');
  const { params, problem } = parseListParams(entity, rawSearch(url));
  if (problem) return refusal(422, problem);

  const access = engine.ops.access(actor, entity.name);
  // The columns the list shows: `columns=` among those the viewer may choose, else the list's own.
  const readable = new Set(access.readable);
  const picked = params.columns.filter((name) => columnChoices(entity, readable).includes(name));
  // The viewer's own list (a role's columns and order) where their role has one.
  const own = listFor(entity, actor);
  const { columns } = listColumns(engine.model, entity, readable, picked.length > 0 ? picked : (fixed.columns ?? own.columns));
  // The viewer's sort replaces the route's; the route's condition always holds.
  const ownSort = own === entity.list ? {} : { sort: `${own.sort.direction === 'desc' ? '-' : ''}${own.sort.field}` };
  const query: ListQuery = { ...ownSort, ...fixed.query, ...toListQuery(params) };
  try {
    const body = await listCsv(engine.ops, actor, entity, query, columns);
    return new Response(body, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${exportFileName(entity)}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known) throw error;
    const details = known.fieldErrors.map((e) => e.message).filter((m) => m !== known.message);
    return refusal(known.status, [known.message, ...new Set(details)].join(' '));
  }
}
