/** Server-sent events as the live stream writes them (https://html.spec.whatwg.org/#server-sent-events). */

/** How long the browser waits before reconnecting by itself after a drop. */
export const RETRY_MS = 2000;

/** The stream's first lines: the reconnection delay and a comment that makes proxies pass the headers on. */
export const openingText = () => `retry: ${RETRY_MS}\n: live\n\n`;

/** A comment line: keeps proxies and load balancers from closing an idle connection. */
export const heartbeatText = () => `: ping\n\n`;

/**
 * One event; `data` is JSON text, a single line. A change's `id` is when the server heard it
 * (epoch ms): the tab holding the stream passes it on, so that a tab joining later can ask for
 * what it missed since its page was rendered (src/ui/live/shared-stream.ts).
 */
export const eventText = (event: 'change' | 'resync' | 'end' | 'inbox', data: unknown, id?: number) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform: compression (Next.js's included) would hold events back to fill a block.
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
} as const;
