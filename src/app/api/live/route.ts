import { cookies } from 'next/headers';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import { getEngine } from '@/server/engine';
import { processLiveHub } from '@/server/live/process-hub';
import { SSE_HEADERS } from '@/server/live/sse';
import { problemResponse } from '@/server/problem';
import { SESSION_COOKIE } from '@/server/session';

export const dynamic = 'force-dynamic';

/** Unread bytes after which a stream is considered abandoned (events are tens of bytes each). */
const STALLED_BYTES = 64 * 1024;

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
    const body = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          const sink = {
            write(text: string) {
              // A reader that stopped reading (gone without a clean close) is let go, not buffered for.
              if ((controller.desiredSize ?? 0) < -STALLED_BYTES) throw new Error('The live stream stopped reading.');
              controller.enqueue(encoder.encode(text));
            },
            end: () => controller.close(),
          };
          connection = hub.connect(token, actor, sink, Number.isFinite(since) && since > 0 ? since : undefined);
        },
        cancel() {
          connection?.close();
        },
      },
      // Counted in bytes, so that desiredSize says how much the browser has not read yet.
      new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
    );
    request.signal.addEventListener('abort', () => connection?.close(), { once: true });
    return new Response(body, { headers: SSE_HEADERS });
  } catch (error) {
    return problemResponse(error);
  }
}
