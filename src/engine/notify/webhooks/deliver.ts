import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppModel } from '../../spec/model';
import type { DynamicDatabase } from '../../store/types';
import { nextAttemptAt } from './backoff';
import { signWebhook } from './signature';
import { WEBHOOK_ATTEMPT_TABLE, WEBHOOK_DELIVERY_TABLE } from './tables';
import { activeTargets, type WebhookEnv, type WebhookTarget } from './targets';

/*
 * The senders: every process's scheduler runs one. A sender claims due deliveries in a short
 * transaction (FOR UPDATE SKIP LOCKED: two processes never claim the same one) and moves their
 * due time a lease ahead, then posts outside any transaction (a slow receiver holds no lock).
 * A sender that dies after its claim leaves the delivery due again when the lease ends, and any
 * process takes it then. The result is kept only while the claim is still the sender's own.
 */

/** Long enough for a batch's posts, each cut off at the timeout. */
const LEASE_SECONDS = 60;
const DEFAULT_TIMEOUT_MS = 10_000;
/** Deliveries claimed at once: posted in parallel. */
const CLAIM_BATCH = 10;
/** How long one run may go on claiming before it lets the scheduler's next tick carry on. */
const RUN_BUDGET_MS = 5_000;
/** What the log keeps of a receiver's answer. */
const EXCERPT_BYTES = 500;

export interface DeliverOptions {
  /** How long a receiver has to answer (default 10 s). */
  readonly timeoutMs?: number;
  /** The webhooks already logged as off, by name and reason: each is logged once per set (a scheduler keeps one). */
  readonly offLogged?: Set<string>;
}

export interface DeliveryRun {
  readonly delivered: number;
  /** Failed attempts that will be tried again. */
  readonly retrying: number;
  /** Deliveries given up (410 Gone, or the last retry failed). */
  readonly failed: number;
  /** Whether the time budget ran out with due deliveries left. */
  readonly more: boolean;
}

export interface ClaimedDelivery {
  readonly id: number;
  readonly webhook: string;
  readonly eventId: string;
  readonly payload: string;
  readonly claim: string;
}

/** Takes up to a batch of due deliveries of the webhooks that are on, for this sender alone, until the lease ends. */
export async function claimDueDeliveries(db: DynamicDatabase, webhooks: readonly string[], now: Date): Promise<ClaimedDelivery[]> {
  if (webhooks.length === 0) return [];
  const claim = randomUUID();
  const leaseEnd = new Date(now.getTime() + LEASE_SECONDS * 1000);
  return db.transaction().execute(async (trx) => {
    const due = await sql<{ id: string }>`
      select id from ${sql.table(WEBHOOK_DELIVERY_TABLE)}
      where status = 'pending' and next_attempt_at <= ${now} and webhook in (${sql.join(webhooks)})
      order by next_attempt_at, id limit ${CLAIM_BATCH} for update skip locked`.execute(trx);
    if (due.rows.length === 0) return [];
    const rows = await trx
      .updateTable(WEBHOOK_DELIVERY_TABLE)
      .set({ claim, next_attempt_at: leaseEnd })
      .where(
        'id',
        'in',
        due.rows.map((row) => row.id),
      )
      .returning(['id', 'webhook', 'event_id', 'payload'])
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      webhook: String(row.webhook),
      eventId: String(row.event_id),
      payload: String(row.payload),
      claim,
    }));
  });
}

/**
 * Posts every delivery due at `now` (the scheduler's clock; tests move it), within a time
 * budget. Does nothing when the spec declares no webhooks or none is on.
 */
export async function deliverDueWebhooks(
  db: DynamicDatabase,
  model: Pick<AppModel, 'webhooks'>,
  env: WebhookEnv,
  now: Date,
  options: DeliverOptions = {},
): Promise<DeliveryRun> {
  const totals = { delivered: 0, retrying: 0, failed: 0, more: false };
  if (model.webhooks.length === 0) return totals;
  const targets = new Map(activeTargets(model, env, options.offLogged).map((target) => [target.name, target]));
  const deadline = Date.now() + RUN_BUDGET_MS;
  for (;;) {
    const claimed = await claimDueDeliveries(db, [...targets.keys()], now);
    const outcomes = await Promise.all(
      claimed.map(async (delivery) => {
        const target = targets.get(delivery.webhook);
        if (!target) throw new Error(`claimed a delivery of webhook ${delivery.webhook}, which is off`);
        const attempt = await post(target, delivery, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
        return recordAttempt(db, delivery, attempt, now);
      }),
    );
    for (const outcome of outcomes) totals[outcome] += 1;
    if (claimed.length < CLAIM_BATCH) return totals;
    if (Date.now() > deadline) return { ...totals, more: true };
  }
}

interface Attempt {
  readonly httpStatus: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly excerpt: string | null;
}

async function post(target: Extract<WebhookTarget, { on: true }>, delivery: ClaimedDelivery, timeoutMs: number): Promise<Attempt> {
  // Signed at the moment of sending (the receiver checks the timestamp against its clock).
  const headers = signWebhook(target.key, delivery.eventId, new Date(), delivery.payload);
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Ninefold-Webhooks', ...headers },
      body: delivery.payload,
      // A redirect is an answer like any other non-2xx: the address in the spec is the one trusted.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const excerpt = await readExcerpt(response);
    const ok = response.status >= 200 && response.status < 300;
    return { httpStatus: response.status, durationMs: duration(), error: ok ? null : `HTTP ${response.status}`, excerpt };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const message = timedOut ? `no answer within ${timeoutMs / 1000} s` : connectionError(error);
    return { httpStatus: null, durationMs: duration(), error: message, excerpt: null };
  }
}

/** The first bytes of the answer, for the log; the rest is not read. */
async function readExcerpt(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // An answer cut off while its body streams still has its status.
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
  return text === '' ? null : text;
}

function connectionError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : null;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code ? `${code}: ${message}` : message;
}

type Outcome = 'delivered' | 'retrying' | 'failed';

/** The attempt in the log, and the delivery's new status, while the claim is still this sender's. */
async function recordAttempt(db: DynamicDatabase, delivery: ClaimedDelivery, attempt: Attempt, now: Date): Promise<Outcome> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto(WEBHOOK_ATTEMPT_TABLE)
      .values({
        delivery_id: delivery.id,
        at: now,
        http_status: attempt.httpStatus,
        duration_ms: attempt.durationMs,
        error: attempt.error,
        response_excerpt: attempt.excerpt,
      })
      .execute();
    const row = await trx
      .updateTable(WEBHOOK_DELIVERY_TABLE)
      .set({ attempts: sql`attempts + 1` })
      .where('id', '=', delivery.id)
      .where('claim', '=', delivery.claim)
      .returning(['attempts'])
      .executeTakeFirst();
    // Another sender took it after this one's lease ended: that sender's attempt decides.
    if (!row) return 'retrying';
    const delivered = attempt.httpStatus !== null && attempt.httpStatus >= 200 && attempt.httpStatus < 300;
    // 410 Gone: the receiver says it wants no more (the Standard Webhooks way to unsubscribe).
    const next = delivered || attempt.httpStatus === 410 ? null : nextAttemptAt(Number(row.attempts), now);
    const status = delivered ? 'delivered' : next ? 'pending' : 'failed';
    await trx
      .updateTable(WEBHOOK_DELIVERY_TABLE)
      .set({
        status,
        next_attempt_at: next ?? now,
        claim: null,
        last_status: attempt.httpStatus,
        last_error: attempt.error,
        updated_at: now,
      })
      .where('id', '=', delivery.id)
      .execute();
    return status === 'pending' ? 'retrying' : status;
  });
}
