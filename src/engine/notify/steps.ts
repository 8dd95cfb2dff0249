import { logLine } from '../log';
import type { OpsContext } from '../ops/context';
import { dispatchOutbox, type NotifyOptions } from './dispatch';
import { makeDigests } from './digest';
import { sendDueMail } from './mail-worker';
import { takeDueReminders } from './reminders';
import { pruneDelivered } from './retention';

/*
 * The notification steps of each process's scheduler run (scheduler.ts): the reminders whose time
 * has come written to the outbox, the outbox dispatched, then (with a Mailer) the day's digests
 * made and the e-mail due sent; once an hour, what delivery left behind is pruned (retention.ts).
 * Also run between ticks when this process's own commit wrote outbox rows (`dispatchSoon`), one
 * run at a time.
 */

export interface NotifySteps {
  /** False when the spec declares no notification and no webhook: the scheduler then has nothing to do for them. */
  readonly active: boolean;
  run(now: Date, deadline: number): Promise<{ readonly more: boolean }>;
  /** A dispatch as soon as the one under way (if any) ends. */
  dispatchSoon(): void;
  /** Resolves when no nudged dispatch is under way. */
  idle(): Promise<void>;
}

const NUDGE_BUDGET_MS = 1_000;
const PRUNE_EVERY_MS = 3_600_000;
const DEFAULT_PUBLIC_URL = 'http://localhost:3000';
const originOf = (options: NotifyOptions) => (options.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '');

export function createNotifySteps(ctx: OpsContext, options: NotifyOptions): NotifySteps {
  // Webhooks follow the outbox too (webhooks/subscriber.ts): a spec with either has rows to dispatch.
  const active = ctx.model.notifications.length > 0 || ctx.model.webhooks.length > 0;
  let chain: Promise<void> = Promise.resolve();
  let queued = false;
  let prunedAt = Number.NEGATIVE_INFINITY;

  async function run(now: Date, deadline: number): Promise<{ more: boolean }> {
    if (!active) return { more: false };
    if (now.getTime() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now.getTime();
      await pruneDelivered(ctx, now);
    }
    const reminded = await takeDueReminders(ctx, now, deadline);
    const dispatched = await dispatchOutbox(ctx, options, deadline);
    if (!options.mailer) return { more: reminded.more || dispatched.more };
    const origin = originOf(options);
    await makeDigests(ctx, origin, now);
    const mailed = await sendDueMail(ctx, options.mailer, origin, now, deadline);
    return { more: reminded.more || dispatched.more || mailed.more };
  }

  return {
    active,
    run,
    dispatchSoon() {
      if (queued) return;
      queued = true;
      chain = chain.then(async () => {
        queued = false;
        try {
          await dispatchOutbox(ctx, options, Date.now() + NUDGE_BUDGET_MS);
          // Its e-mails leave now too, rather than at the next tick.
          if (options.mailer) await sendDueMail(ctx, options.mailer, originOf(options), new Date(), Date.now() + NUDGE_BUDGET_MS);
        } catch (error) {
          // The scheduler's next tick tries again; the rows stay pending.
          logLine('warn', 'notification dispatch failed', { error: error instanceof Error ? error.message : String(error) });
        }
      });
    },
    idle: () => chain,
  };
}
