import { NinefoldError } from '@/engine/errors/ninefold-error';
import { hashToken } from '@/engine/identity/shared';
import type { Identity } from '@/engine/identity/types';
import type { Change, RecordChange } from '@/engine/live/changes';
import type { LiveFeed } from '@/engine/live/feed';
import { visibleChanges } from '@/engine/live/visible';
import type { Ops } from '@/engine/ops/ops';
import type { Actor } from '@/engine/ground/actor';
import { resolveLimits, type Limits } from '@/engine/limits';
import type { AppModel } from '@/engine/spec/model';
import type { Notifications } from '@/engine/notify/notifications';
import { eventText, heartbeatText, openingText } from './sse';

/** Where a stream's text goes (the SSE response body). */
export interface LiveSink {
  write(text: string): void;
  end(): void;
}

export interface LiveConnection {
  /** The browser went away: forget the stream. */
  close(): void;
}

export interface HubTimings {
  /** Changes arriving within this window are one event per stream (a bulk change is one refresh). */
  readonly coalesceMs: number;
  readonly heartbeatMs: number;
  /** Sessions are checked again this often (timeouts); sign-out and disable end streams at once. */
  readonly recheckMs: number;
  /** A change made by another process may reach this one's session cache up to a second later. */
  readonly settleMs: number;
  /** How long recent changes are kept for streams that open late (see `connect`'s `since`). */
  readonly replayMs: number;
}

const DEFAULT_TIMINGS: HubTimings = { coalesceMs: 120, heartbeatMs: 25_000, recheckMs: 5 * 60_000, settleMs: 1200, replayMs: 30_000 };

interface Stream {
  readonly token: string;
  readonly sessionHash: string;
  readonly userId: number;
  actor: Actor;
  readonly sink: LiveSink;
  closed: boolean;
}

/** How long a browser refused a stream waits before asking again (Retry-After). */
export const REFUSED_RETRY_SECONDS = 60;

type HubEngine = {
  readonly model: AppModel;
  readonly ops: Ops;
  readonly identity: Pick<Identity, 'actorForSession'>;
  readonly live: LiveFeed;
  /** The bells: absent where the engine has none to ring (tests of the change feed alone). */
  readonly notifications?: Pick<Notifications, 'listen' | 'unread'>;
};

// Streams of the same user, roles and user fields see the same changes (a field may scope them: their organization).
const actorKey = (actor: Actor) => `${actor.userId}:${[...actor.roles].sort().join(',')}:${JSON.stringify(actor.fields ?? {})}`;

/**
 * The live streams of one server process. The database's change feed comes in; per batch, each
 * distinct viewer (user and roles) is told only the changed records ops.readable lets them read
 * — one query per entity and viewer at most, none for a viewer who reads everything — and every
 * open stream of that viewer gets it as one event. Sessions that end (sign-out, disabled
 * account) end their streams at once, from whichever process ended them.
 */
export class LiveHub {
  readonly #engine: HubEngine;
  readonly #timings: HubTimings;
  readonly #streams = new Set<Stream>();
  /** Open streams per session (by its token's hash) and per user, against the spec's caps. */
  readonly #perSession = new Map<string, number>();
  readonly #perUser = new Map<number, number>();
  readonly #caps: Pick<Limits, 'liveStreamsPerSession' | 'liveStreamsPerUser'>;
  #pending: RecordChange[] = [];
  /** The batches of the last replayMs, oldest first, for streams that open after their page was rendered. */
  #recent: { readonly at: number; readonly batch: readonly RecordChange[] }[] = [];
  #flushTimer: NodeJS.Timeout | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  #recheck: NodeJS.Timeout | null = null;
  #unsubscribe: (() => void) | null = null;
  #stopInbox: (() => Promise<void>) | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(engine: HubEngine, timings: Partial<HubTimings> = {}) {
    this.#engine = engine;
    this.#timings = { ...DEFAULT_TIMINGS, ...timings };
    this.#caps = resolveLimits(engine.model);
  }

  /** Starts listening to the change feed (once). */
  async start(): Promise<void> {
    if (this.#unsubscribe) return;
    this.#unsubscribe = await this.#engine.live.subscribe({
      onChange: (change) => this.#receive(change),
      onResync: () => this.#broadcast(eventText('resync', {})),
    });
    const notifications = this.#engine.notifications;
    if (notifications && this.#engine.model.notifications.length > 0) {
      this.#stopInbox = await notifications.listen((userIds) => void this.#inboxChanged(userIds));
    }
  }

  /**
   * A signed-in viewer's stream, already resolved from the session token. `since` (epoch ms):
   * when its page was rendered; the changes heard since then are sent at once, so that the time
   * between rendering and connecting loses nothing.
   */
  connect(token: string, actor: Actor, sink: LiveSink, since?: number): LiveConnection {
    const refused = this.refusal(token, actor);
    if (refused) throw refused;
    const stream: Stream = { token, sessionHash: hashToken(token), userId: actor.userId, actor, sink, closed: false };
    this.#streams.add(stream);
    this.#perSession.set(stream.sessionHash, (this.#perSession.get(stream.sessionHash) ?? 0) + 1);
    this.#perUser.set(stream.userId, (this.#perUser.get(stream.userId) ?? 0) + 1);
    this.#write(stream, openingText());
    this.#timers();
    // The bell as it is now: a notification delivered between the page's render and this stream is not missed.
    if (this.#stopInbox) void this.#sendUnread([stream]);
    const recent = since === undefined ? [] : this.#recent.filter((r) => r.at >= since);
    const missed = recent.flatMap((r) => r.batch);
    const heardAt = recent.at(-1)?.at;
    if (missed.length > 0) {
      void visibleChanges(this.#engine.model, this.#engine.ops, actor, missed).then(
        (visible) => {
          if (!stream.closed && Object.keys(visible).length > 0) this.#write(stream, eventText('change', visible, heardAt));
        },
        (error: unknown) => console.error('[ninefold] live changes:', error),
      );
    }
    return { close: () => this.#forget(stream) };
  }

  /**
   * Why another stream of this session would be refused (RATE_LIMITED, with Retry-After), or
   * null: a session holds at most liveStreamsPerSession streams on this process, a user (all
   * their sessions) liveStreamsPerUser. A stream counts until it closes.
   */
  refusal(token: string, actor: Actor): NinefoldError | null {
    const { liveStreamsPerSession: perSession, liveStreamsPerUser: perUser } = this.#caps;
    const retryAfterSeconds = REFUSED_RETRY_SECONDS;
    if ((this.#perSession.get(hashToken(token)) ?? 0) >= perSession) {
      return new NinefoldError(
        'RATE_LIMITED',
        `This browser already has ${perSession} live connections open: close some of this application's tabs or windows. Live updates resume by themselves.`,
        {
          retryAfterSeconds,
          details: { constant: 'liveStreamsPerSession', max: perSession },
        },
      );
    }
    if ((this.#perUser.get(actor.userId) ?? 0) >= perUser) {
      return new NinefoldError(
        'RATE_LIMITED',
        `Your account already has ${perUser} live connections open: close this application in other tabs, windows or devices. Live updates resume by themselves.`,
        {
          retryAfterSeconds,
          details: { constant: 'liveStreamsPerUser', max: perUser },
        },
      );
    }
    return null;
  }

  /**
   * Ends every stream and stops listening (the server is closing). Without an `end` event, which
   * would tell the browser its session ended: the stream just closes, and the browser reconnects
   * after its retry, to this server once restarted or to another one, and catches up.
   */
  stop(): void {
    for (const stream of [...this.#streams]) {
      this.#forget(stream);
      try {
        stream.sink.end();
      } catch {
        // Already closed by the other side.
      }
    }
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    void this.#stopInbox?.().catch(() => undefined);
    this.#stopInbox = null;
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
  }

  /** Resolves once the changes received so far have been sent (tests). */
  async settled(): Promise<void> {
    while (this.#flushTimer) await new Promise((resolve) => setTimeout(resolve, this.#timings.coalesceMs));
    await this.#flushing;
  }

  #receive(change: Change): void {
    if (change.kind === 'accounts') {
      this.#accountsChanged(change.sessions, change.users);
      return;
    }
    this.#pending.push(change);
    this.#flushTimer ??= setTimeout(() => {
      this.#flushTimer = null;
      const batch = this.#pending;
      this.#pending = [];
      const now = Date.now();
      this.#recent = this.#recent.filter((r) => r.at > now - this.#timings.replayMs);
      this.#recent.push({ at: now, batch });
      this.#flushing = this.#flushing
        .then(() => this.#send(batch, now))
        .catch((error: unknown) => console.error('[ninefold] live changes:', error));
    }, this.#timings.coalesceMs);
  }

  async #send(batch: readonly RecordChange[], heardAt: number): Promise<void> {
    const viewers = new Map<string, Stream[]>();
    for (const stream of this.#streams) {
      const key = actorKey(stream.actor);
      const same = viewers.get(key);
      if (same) same.push(stream);
      else viewers.set(key, [stream]);
    }
    await Promise.all(
      [...viewers.values()].map(async (streams) => {
        // Each group starts with the stream that made it: never empty.
        const [first] = streams;
        if (!first) return;
        const visible = await visibleChanges(this.#engine.model, this.#engine.ops, first.actor, batch);
        if (Object.keys(visible).length === 0) return;
        const text = eventText('change', visible, heardAt);
        for (const stream of streams) this.#write(stream, text);
      }),
    );
  }

  /**
   * Users whose inbox changed (a notification delivered, or read in another tab or process): each
   * of their streams on this process gets their unread count, and nothing else (no record, no
   * title), read for that user alone.
   */
  async #inboxChanged(userIds: readonly number[]): Promise<void> {
    const wanted = new Set(userIds);
    const byUser = new Map<number, Stream[]>();
    for (const stream of this.#streams) {
      if (!wanted.has(stream.userId)) continue;
      const same = byUser.get(stream.userId);
      if (same) same.push(stream);
      else byUser.set(stream.userId, [stream]);
    }
    await Promise.all([...byUser.values()].map((streams) => this.#sendUnread(streams)));
  }

  /** One user's streams get that user's unread count. */
  async #sendUnread(streams: readonly Stream[]): Promise<void> {
    const notifications = this.#engine.notifications;
    const first = streams[0];
    if (!notifications || !first) return;
    try {
      const text = eventText('inbox', { unread: await notifications.unread(first.actor) });
      for (const stream of streams) if (!stream.closed) this.#write(stream, text);
    } catch (error) {
      // The bell catches up on the next page load.
      console.error('[ninefold] live inbox:', error);
    }
  }

  #accountsChanged(sessions: readonly string[] | null, users: readonly number[]): void {
    if (sessions) {
      const ended = new Set(sessions);
      for (const stream of [...this.#streams]) if (ended.has(stream.sessionHash)) this.#end(stream, 'signed-out');
    }
    const changedUsers = new Set(users);
    const affected = [...this.#streams].filter((s) => sessions === null || changedUsers.has(s.actor.userId));
    if (affected.length === 0) return;
    // Now, and once more after a change made by another process has reached this one's caches.
    void this.#recheckSessions(affected);
    setTimeout(() => void this.#recheckSessions(affected.filter((s) => !s.closed)), this.#timings.settleMs).unref();
  }

  /** Ends the streams whose session no longer answers; takes up the current roles of the others. */
  async #recheckSessions(streams: readonly Stream[]): Promise<void> {
    await Promise.all(
      streams.map(async (stream) => {
        if (stream.closed) return;
        const actor = await this.#engine.identity.actorForSession(stream.token).catch(() => stream.actor);
        if (!actor) this.#end(stream, 'signed-out');
        else stream.actor = actor;
      }),
    );
  }

  #timers(): void {
    this.#heartbeat ??= setInterval(() => this.#broadcast(heartbeatText()), this.#timings.heartbeatMs).unref();
    this.#recheck ??= setInterval(() => void this.#recheckSessions([...this.#streams]), this.#timings.recheckMs).unref();
  }

  #broadcast(text: string): void {
    for (const stream of this.#streams) this.#write(stream, text);
  }

  #write(stream: Stream, text: string): void {
    try {
      stream.sink.write(text);
    } catch {
      // The response is gone or no longer read (the browser left without a clean close).
      this.#forget(stream);
      try {
        stream.sink.end();
      } catch {
        // Already closed.
      }
    }
  }

  #end(stream: Stream, reason: string): void {
    if (stream.closed) return;
    this.#write(stream, eventText('end', { reason }));
    this.#forget(stream);
    try {
      stream.sink.end();
    } catch {
      // Already closed by the other side.
    }
  }

  #forget(stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    this.#streams.delete(stream);
    this.#release(this.#perSession, stream.sessionHash);
    this.#release(this.#perUser, stream.userId);
    if (this.#streams.size > 0) return;
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    if (this.#recheck) clearInterval(this.#recheck);
    this.#heartbeat = null;
    this.#recheck = null;
  }

  #release<K>(counts: Map<K, number>, key: K): void {
    const left = (counts.get(key) ?? 1) - 1;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
  }
}
