import type { LiveChanges } from './topics';

/** What the live stream tells every tab. */
export type LiveMessage =
  | { readonly kind: 'change'; readonly changes: LiveChanges }
  /** Changes may have been missed (the connection was lost, or another tab's was): refresh. */
  | { readonly kind: 'catch-up' }
  /** The session ended: refresh (to the sign-in page). */
  | { readonly kind: 'end' }
  | { readonly kind: 'reconnecting'; readonly on: boolean };

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;
/** An outage shorter than this goes unmentioned (a server restart, a network blip). */
const QUIET_OUTAGE_MS = 4000;
const LOCK = 'ninefold-live-stream';
const CHANNEL = 'ninefold-live';

/**
 * One EventSource on GET /api/live, with our own backoff (the browser's fixed retry would hammer
 * a server that is down) and the outage reported once it lasts. Returns the function that stops it.
 */
function runStream(url: string, publish: (message: LiveMessage) => void, catchUpOnOpen: boolean): () => void {
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let outageTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;
  let first = true;

  const open = () => {
    const stream = new EventSource(first ? url : '/api/live');
    first = false;
    source = stream;
    stream.onopen = () => {
      clearTimeout(outageTimer);
      if (failures > 0) publish({ kind: 'reconnecting', on: false });
      // Back after a drop (or taking over from another tab): whatever changed meanwhile was not heard.
      if (failures > 0 || catchUpOnOpen) publish({ kind: 'catch-up' });
      catchUpOnOpen = false;
      failures = 0;
    };
    stream.addEventListener('change', (event) => publish({ kind: 'change', changes: JSON.parse((event as MessageEvent<string>).data) as LiveChanges }));
    stream.addEventListener('resync', () => publish({ kind: 'catch-up' }));
    stream.addEventListener('end', () => {
      stopped = true;
      stream.close();
      publish({ kind: 'end' });
    });
    stream.onerror = () => {
      stream.close();
      if (stopped) return;
      if (failures === 0) outageTimer = setTimeout(() => publish({ kind: 'reconnecting', on: true }), QUIET_OUTAGE_MS);
      retryTimer = setTimeout(open, Math.min(FIRST_RETRY_MS * 2 ** failures, MAX_RETRY_MS));
      failures += 1;
    };
  };

  open();
  return () => {
    stopped = true;
    source?.close();
    clearTimeout(retryTimer);
    clearTimeout(outageTimer);
  };
}

/**
 * The live stream, shared by every tab of the application in this browser: browsers allow six
 * connections per host over HTTP/1.1, and a stream per tab would leave a seventh tab waiting. One
 * tab holds a Web Lock and the connection, and passes what it hears to the others on a
 * BroadcastChannel; when it closes, another tab takes over (and catches up). Without those APIs,
 * each tab has its own stream. `since`: when this tab's page was rendered (see LiveHub.connect).
 */
export function openSharedLiveStream({ since, delayMs, onMessage }: { since: number; delayMs: number; onMessage: (message: LiveMessage) => void }): () => void {
  const url = `/api/live?since=${since}`;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  let stopStream: (() => void) | null = null;
  let delay: ReturnType<typeof setTimeout> | undefined;
  const publish = (message: LiveMessage) => {
    onMessage(message);
    channel?.postMessage(message);
  };

  if (!channel || !locks) {
    delay = setTimeout(() => (stopStream = runStream(url, onMessage, false)), delayMs);
    return () => {
      clearTimeout(delay);
      stopStream?.();
      channel?.close();
    };
  }

  channel.onmessage = (event: MessageEvent<LiveMessage>) => onMessage(event.data);
  const abort = new AbortController();
  let release: (() => void) | null = null;
  /** Holds the lock (and the stream) until this tab's page goes away. */
  const lead = (takeover: boolean) =>
    new Promise<void>((resolve) => {
      release = resolve;
      if (takeover) stopStream = runStream('/api/live', publish, true);
      else delay = setTimeout(() => (stopStream = runStream(url, publish, false)), delayMs);
    });
  locks
    .request(LOCK, { ifAvailable: true }, (lock) => (lock ? lead(false) : null))
    .then((result) => {
      if (result === null && !abort.signal.aborted) return locks.request(LOCK, { signal: abort.signal }, () => lead(true));
    })
    // AbortError: this tab went away while waiting for the lock.
    .catch(() => undefined);

  return () => {
    abort.abort();
    clearTimeout(delay);
    stopStream?.();
    (release as (() => void) | null)?.();
    channel.close();
  };
}
