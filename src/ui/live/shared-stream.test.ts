import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFailedOpen, openSharedLiveStream, type LiveMessage } from './shared-stream';

/** An EventSource the test opens and fails by hand. */
class FakeEventSource {
  static made: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  readonly listeners = new Map<string, (event: { data: string; lastEventId: string }) => void>();
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  addEventListener(type: string, listener: (event: { data: string; lastEventId: string }) => void): void {
    this.listeners.set(type, listener);
  }
  /** The server sends an event. */
  emit(type: string, data: unknown, id = ''): void {
    this.listeners.get(type)?.({ data: JSON.stringify(data), lastEventId: id });
  }
  close(): void {
    this.closed = true;
  }
}

describe('what a stream that failed to open does next', () => {
  it('stops when the session ended, waits out a refusal as the server says (within bounds), and otherwise retries', () => {
    expect(afterFailedOpen(401, null)).toEqual({ kind: 'end' });
    expect(afterFailedOpen(429, '60')).toEqual({ kind: 'wait', ms: 60_000 });
    expect(afterFailedOpen(429, null)).toEqual({ kind: 'wait', ms: 60_000 });
    expect(afterFailedOpen(429, '0')).toEqual({ kind: 'wait', ms: 60_000 });
    expect(afterFailedOpen(429, '1')).toEqual({ kind: 'wait', ms: 5000 });
    expect(afterFailedOpen(429, '86400')).toEqual({ kind: 'wait', ms: 600_000 });
    for (const status of [503, 500, 200, null]) expect(afterFailedOpen(status, '60')).toEqual({ kind: 'retry' });
  });
});

describe('the live stream of a tab', () => {
  let answer: { status: number; retryAfter?: string };
  const messages: LiveMessage[] = [];
  let stop: () => void;
  const made = () => FakeEventSource.made;
  const last = () => made().at(-1)!;

  beforeEach(async () => {
    vi.useFakeTimers();
    FakeEventSource.made = [];
    messages.length = 0;
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        expect(init.method).toBe('HEAD');
        return new Response(null, { status: answer.status, headers: answer.retryAfter ? { 'retry-after': answer.retryAfter } : {} });
      }),
    );
    stop = openSharedLiveStream({ since: 1, delayMs: 0, onMessage: (message) => messages.push(message) });
    await vi.advanceTimersByTimeAsync(0);
  });

  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('waits out a refusal quietly, asking again only as often as the server says, and catches up once let in', async () => {
    answer = { status: 429, retryAfter: '60' };
    for (let minute = 0; minute < 10; minute++) {
      last().onerror!();
      await vi.advanceTimersByTimeAsync(59_000);
      expect(made()).toHaveLength(minute + 1);
      await vi.advanceTimersByTimeAsync(1000);
    }
    // Ten minutes refused: one attempt a minute, never an outage notice.
    expect(made()).toHaveLength(11);
    expect(messages).toEqual([{ kind: 'refused', on: true }]);
    last().onopen!();
    expect(messages.slice(1)).toEqual([{ kind: 'refused', on: false }, { kind: 'catch-up' }]);
  });

  it('stops when the session has ended, and backs off from an outage as before', async () => {
    answer = { status: 503 };
    last().onerror!();
    await vi.advanceTimersByTimeAsync(1000);
    last().onerror!();
    await vi.advanceTimersByTimeAsync(1999);
    expect(made()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(made()).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(messages).toEqual([{ kind: 'reconnecting', on: true }]);

    answer = { status: 401 };
    last().onerror!();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(made()).toHaveLength(3);
    expect(messages.at(-1)).toEqual({ kind: 'end' });
  });

  it('comes back after the usual pause when a stream that was open drops, without asking the server why', async () => {
    last().onopen!();
    last().onerror!();
    await vi.advanceTimersByTimeAsync(1000);
    expect(made()).toHaveLength(2);
    expect(fetch).not.toHaveBeenCalled();
  });
});

/** Web Locks as browsers grant them: one holder at a time, the others queued (or refused with ifAvailable). */
class FakeLocks {
  #held = false;
  #queue: (() => void)[] = [];
  async request(_name: string, ...args: unknown[]): Promise<unknown> {
    const options = (args.length > 1 ? args[0] : {}) as { ifAvailable?: boolean; signal?: AbortSignal };
    const callback = args.at(-1) as (lock: object | null) => unknown;
    if (this.#held) {
      if (options.ifAvailable) return callback(null);
      await new Promise<void>((resolve) => this.#queue.push(resolve));
    }
    this.#held = true;
    try {
      return await callback({});
    } finally {
      this.#held = false;
      this.#queue.shift()?.();
    }
  }
}

describe('the stream shared by the tabs of one browser', () => {
  const stops: (() => void)[] = [];
  const tab = (since: number) => {
    const heard: LiveMessage[] = [];
    stops.push(openSharedLiveStream({ since, delayMs: 0, onMessage: (message) => heard.push(message) }));
    return heard;
  };
  // BroadcastChannel delivers in a later task, real time: a short wait for it.
  const delivered = () => new Promise((resolve) => setTimeout(resolve, 50));

  beforeEach(() => {
    FakeEventSource.made = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.stubGlobal('navigator', { locks: new FakeLocks() });
  });

  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
    vi.unstubAllGlobals();
  });

  it('opens one connection, and gives a tab that opens later the changes made since its page was rendered, and only those', async () => {
    const first = tab(1000);
    await delivered();
    expect(FakeEventSource.made.map((source) => source.url)).toEqual(['/api/live?since=1000']);
    const [source] = FakeEventSource.made;
    source!.onopen!();
    source!.emit('change', { ticket: [1] }, '2000');
    source!.emit('change', { ticket: [2] }, '5000');
    expect(first).toEqual([
      { kind: 'change', changes: { ticket: [1] }, at: 2000 },
      { kind: 'change', changes: { ticket: [2] }, at: 5000 },
    ]);

    // Rendered before the second change reached the first tab, but listening only after it.
    const second = tab(3000);
    const third = tab(6000);
    await delivered();
    expect(FakeEventSource.made).toHaveLength(1);
    expect(second).toEqual([{ kind: 'change', changes: { ticket: [2] }, at: 5000 }]);
    expect(third).toEqual([]);

    // From then on, every tab hears each change once.
    source!.emit('change', { ticket: [3] }, '7000');
    await delivered();
    for (const heard of [second, third]) expect(heard.at(-1)).toEqual({ kind: 'change', changes: { ticket: [3] }, at: 7000 });
    expect(third).toHaveLength(1);
  });
});
