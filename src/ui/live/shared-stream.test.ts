import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFailedOpen, openSharedLiveStream, type LiveMessage } from './shared-stream';

/** An EventSource the test opens and fails by hand. */
class FakeEventSource {
  static made: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  addEventListener(): void {}
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
