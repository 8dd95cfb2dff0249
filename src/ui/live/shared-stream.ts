import type { LiveChanges } from './topics';

/** What the live stream tells every tab. */
export type LiveMessage =
  /** `at`: when the server heard the changes (its clock, epoch ms), when it said. */
  | { readonly kind: 'change'; readonly changes: LiveChanges; readonly at?: number }
  /** The signed-in user's unread notifications now (their bell): a count, nothing of any record. */
  | { readonly kind: 'inbox'; readonly unread: number }
  /** Changes may have been missed (the connection was lost, or another tab's was): refresh. */
  | { readonly kind: 'catch-up' }
  /** The session ended: refresh (to the sign-in page). */
  | { readonly kind: 'end' }
  | { readonly kind: 'reconnecting'; readonly on: boolean }
  /** The server refused the stream (too many open for this session or user): updates pause until it takes one. */
  | { readonly kind: 'refused'; readonly on: boolean };

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;
/** A refused stream waits what the server's Retry-After says, within these bounds. */
const REFUSED_WAIT_MS = { least: 5000, default: 60_000, most: 10 * 60_000 } as const;
/** An outage shorter than this goes unmentioned (a server restart, a network blip). */
const QUIET_OUTAGE_MS = 4000;
const LOCK = 'ninefold-live-stream';
const CHANNEL = 'ninefold-live';
/** How long the tab holding the stream keeps what it heard, for tabs that join later (the server keeps as long). */
const REPLAY_MS = 30_000;

/**
 * What tabs say to each other on the channel: what the stream said, and, for a tab that joins
 * after the stream was opened, a hello (with when its page was rendered) and the replay of the
 * changes it missed, addressed to it alone.
 */
type ChannelMessage =
  | LiveMessage
  | { readonly kind: 'hello'; readonly tab: string; readonly since: number }
  | { readonly kind: 'replay'; readonly tab: string; readonly messages: readonly LiveMessage[] };

/** What to do after a stream failed to open: stop (the session ended), wait (refused), or retry with the usual backoff. */
export type AfterFailedOpen = { readonly kind: 'end' } | { readonly kind: 'wait'; readonly ms: number } | { readonly kind: 'retry' };

/**
 * From what the server says of a stream it would open now (HEAD /api/live: its status and
 * Retry-After; null when it could not be asked): an EventSource that fails to open does not say why.
 */
export function afterFailedOpen(status: number | null, retryAfter: string | null): AfterFailedOpen {
  if (status === 401) return { kind: 'end' };
  if (status !== 429) return { kind: 'retry' };
  const seconds = Number(retryAfter);
  const ms = retryAfter !== null && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : REFUSED_WAIT_MS.default;
  return { kind: 'wait', ms: Math.min(Math.max(ms, REFUSED_WAIT_MS.least), REFUSED_WAIT_MS.most) };
}

async function askWhy(): Promise<AfterFailedOpen> {
  try {
    const answer = await fetch('/api/live', { method: 'HEAD', cache: 'no-store', credentials: 'same-origin' });
    return afterFailedOpen(answer.status, answer.headers.get('retry-after'));
  } catch {
    return afterFailedOpen(null, null);
  }
}

/**
 * One EventSource on GET /api/live, with our own backoff (the browser's fixed retry would hammer
 * a server that is down) and the outage reported once it lasts. A stream that fails to open asks
 * the server why: a session that ended stops, a refusal (too many streams) waits as long as the
 * server says, quietly. Returns the function that stops it.
 */
function runStream(url: string, publish: (message: LiveMessage) => void, catchUpOnOpen: boolean): () => void {
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let outageTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let refused = false;
  let stopped = false;
  let first = true;

  const retry = () => {
    if (failures === 0) outageTimer = setTimeout(() => publish({ kind: 'reconnecting', on: true }), QUIET_OUTAGE_MS);
    retryTimer = setTimeout(open, Math.min(FIRST_RETRY_MS * 2 ** failures, MAX_RETRY_MS));
    failures += 1;
  };

  const open = () => {
    const stream = new EventSource(first ? url : '/api/live');
    first = false;
    source = stream;
    let opened = false;
    stream.onopen = () => {
      opened = true;
      clearTimeout(outageTimer);
      if (failures > 0) publish({ kind: 'reconnecting', on: false });
      if (refused) publish({ kind: 'refused', on: false });
      // Back after a drop or a refusal (or taking over from another tab): whatever changed meanwhile was not heard.
      if (failures > 0 || refused || catchUpOnOpen) publish({ kind: 'catch-up' });
      catchUpOnOpen = false;
      failures = 0;
      refused = false;
    };
    stream.addEventListener('change', (event) => {
      const { data, lastEventId } = event as MessageEvent<string>;
      const at = Number(lastEventId);
      publish({ kind: 'change', changes: JSON.parse(data) as LiveChanges, ...(lastEventId && Number.isFinite(at) ? { at } : {}) });
    });
    stream.addEventListener('inbox', (event) => {
      const { unread } = JSON.parse((event as MessageEvent<string>).data) as { unread: unknown };
      if (typeof unread === 'number') publish({ kind: 'inbox', unread });
    });
    stream.addEventListener('resync', () => publish({ kind: 'catch-up' }));
    stream.addEventListener('end', () => {
      stopped = true;
      stream.close();
      publish({ kind: 'end' });
    });
    stream.onerror = () => {
      stream.close();
      if (stopped) return;
      // A stream that was open dropped: come back. One that never opened may have been refused.
      if (opened) return retry();
      void askWhy().then((next) => {
        if (stopped) return;
        if (next.kind === 'retry') return retry();
        if (next.kind === 'end') {
          stopped = true;
          publish({ kind: 'end' });
          return;
        }
        // Not an outage: the notice of one gives way to the refusal's.
        clearTimeout(outageTimer);
        if (failures > 0) publish({ kind: 'reconnecting', on: false });
        failures = 0;
        if (!refused) publish({ kind: 'refused', on: true });
        refused = true;
        retryTimer = setTimeout(open, next.ms);
      });
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
export function openSharedLiveStream({
  since,
  delayMs,
  onMessage,
}: {
  since: number;
  delayMs: number;
  onMessage: (message: LiveMessage) => void;
}): () => void {
  const url = `/api/live?since=${since}`;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  const tab = Math.random().toString(36).slice(2);
  let stopStream: (() => void) | null = null;
  let delay: ReturnType<typeof setTimeout> | undefined;
  /** While this tab holds the stream: the changes heard lately, with when the server heard them. */
  let heard: { readonly at: number; readonly message: LiveMessage }[] = [];
  const say = (message: ChannelMessage) => channel?.postMessage(message);
  const publish = (message: LiveMessage) => {
    if (message.kind === 'change' && message.at !== undefined) {
      const at = message.at;
      heard = [...heard.filter((h) => h.at > at - REPLAY_MS), { at, message }];
    }
    onMessage(message);
    say(message);
  };
  if (!channel || !locks) {
    delay = setTimeout(() => (stopStream = runStream(url, onMessage, false)), delayMs);
    return () => {
      clearTimeout(delay);
      stopStream?.();
      channel?.close();
    };
  }

  channel.onmessage = (event: MessageEvent<ChannelMessage>) => {
    const message = event.data;
    if (message.kind === 'hello') {
      // A tab that opened after the stream: what it may have missed since its page was rendered.
      const missed = heard.filter((h) => h.at >= message.since).map((h) => h.message);
      if (missed.length > 0) say({ kind: 'replay', tab: message.tab, messages: missed });
    } else if (message.kind === 'replay') {
      if (message.tab === tab) for (const missed of message.messages) onMessage(missed);
    } else onMessage(message);
  };
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
      if (result !== null || abort.signal.aborted) return;
      // Another tab holds the stream: ask it for what changed since this page was rendered.
      say({ kind: 'hello', tab, since });
      return locks.request(LOCK, { signal: abort.signal }, () => lead(true));
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
