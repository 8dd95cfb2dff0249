import { cookies } from 'next/headers';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import { getEngine } from '@/server/engine';
import { processLiveHub } from '@/server/live/process-hub';
import { SSE_HEADERS } from '@/server/live/sse';
import { problemResponse } from '@/server/problem';
import { SESSION_COOKIE } from '@/server/session';

export const dynamic = 'force-dynamic';

/**
 * The signed-in browser's live stream (server-sent events): which records it may read changed,
 * never what they hold; the page re-reads them through ops. One per tab, authenticated by the
 * session cookie; it ends as soon as that session does.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const token = (await cookies()).get(SESSION_COOKIE)?.value;
    const engine = await getEngine();
    const actor = token ? await engine.identity.actorForSession(token) : null;
    if (!token || !actor) throw new NinefoldError('UNAUTHENTICATED');
    const hub = await processLiveHub();
    // When the page was rendered: what changed since is sent at once (see LiveHub.connect).
    const since = Number(new URL(request.url).searchParams.get('since'));
    const encoder = new TextEncoder();
    let connection: { close(): void } | null = null;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        connection = hub.connect(token, actor, {
          write: (text) => controller.enqueue(encoder.encode(text)),
          end: () => controller.close(),
        }, Number.isFinite(since) && since > 0 ? since : undefined);
      },
      cancel() {
        connection?.close();
      },
    });
    request.signal.addEventListener('abort', () => connection?.close(), { once: true });
    return new Response(body, { headers: SSE_HEADERS });
  } catch (error) {
    return problemResponse(error);
  }
}
