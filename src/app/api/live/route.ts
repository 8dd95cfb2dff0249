import { cookies } from 'next/headers';
import { NinefoldError } from '@/engine/errors/ninefold-error';
import { getEngine } from '@/server/engine';
import type { Actor } from '@/engine/ground/actor';
import type { LiveHub } from '@/server/live/hub';
import { processLiveHub } from '@/server/live/process-hub';
import { SSE_HEADERS } from '@/server/live/sse';
import { problemResponse } from '@/server/problem';
import { SESSION_COOKIE } from '@/server/session';

export const dynamic = 'force-dynamic';

/** Unread bytes after which a stream is considered abandoned (events are tens of bytes each). */
const STALLED_BYTES = 64 * 1024;

/** The session the request's cookie names and its user, or UNAUTHENTICATED; and this process's hub. */
async function viewer(): Promise<{ token: string; actor: Actor; hub: LiveHub }> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const engine = await getEngine();
  const actor = token ? await engine.identity.actorForSession(token) : null;
  if (!token || !actor) throw new NinefoldError('UNAUTHENTICATED');
  return { token, actor, hub: await processLiveHub() };
}

/**
 * The signed-in browser's live stream (server-sent events): which records it may read changed,
 * never what they hold; the page re-reads them through ops. Shared by the tabs of a browser,
 * authenticated by the session cookie; it ends as soon as that session does. A session or user
 * holding as many streams as the spec allows is refused (429 RATE_LIMITED, Retry-After).
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const { token, actor, hub } = await viewer();
    const refused = hub.refusal(token, actor);
    if (refused) throw refused;
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

/**
 * Whether a stream would be opened now, without opening one: the browser asks after a stream
 * failed to open (EventSource does not tell why), to stop on 401 and wait out a 429.
 */
export async function HEAD(): Promise<Response> {
  let answer: Response;
  try {
    const { token, actor, hub } = await viewer();
    const refused = hub.refusal(token, actor);
    answer = refused ? problemResponse(refused) : new Response(null, { status: 204 });
  } catch (error) {
    answer = problemResponse(error);
  }
  const headers = new Headers(answer.headers);
  headers.set('cache-control', 'no-store');
  return new Response(null, { status: answer.status, headers });
}
