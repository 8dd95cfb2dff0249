import { logLine } from '../log';
import { autoTransitions, countDue, takeDueTransitions, type AutoRun } from '../ops/auto-transitions';
import type { OpsContext } from '../ops/context';
import { DEFAULT_SCHEDULER_SECONDS } from '../spec/auto';
import type { WebhookEnv } from '../notify/webhooks/targets';
import { webhookStep } from './webhook-step';
import type { NotifyOptions } from '../notify/dispatch';
import { onNudge } from '../notify/nudge';
import { createNotifySteps } from '../notify/steps';
import { hasFileFields } from '../spec/file-fields';

/*
 * The scheduler of one server process: every interval it takes the automatic transitions that
 * have fallen due (ops/auto-transitions.ts), then posts the webhook deliveries that have
 * (./webhook-step.ts). Every process of a fleet runs one; the database decides
 * which takes what (FOR UPDATE SKIP LOCKED), so there is no leader to elect or lose.
 */

/** What /api/health says of the scheduler. */
export interface SchedulerStatus {
  /** Whether this process runs it (servers do; the CLI and tests call `runOnce`). */
  readonly running: boolean;
  readonly intervalSeconds: number;
  /** When this process last finished a run (ISO 8601), or null before its first. */
  readonly lastRunAt: string | null;
  /** Transitions this process took in its last run. */
  readonly lastTaken: number;
  /** Records due and not taken when the last run ended (refused ones, or more than a run's time), up to 10,000. */
  readonly backlog: number;
  /** Why the last run failed (the database was away), or null. */
  readonly lastError: string | null;
}

export interface Scheduler {
  /** Runs every interval from now on (a first run at once), until `stop`. */
  start(): void;
  /** Ends the loop and waits for a run under way. */
  stop(): Promise<void>;
  /** One run at `now` (the clock tests control); the loop's runs use the real clock. */
  runOnce(now?: Date): Promise<AutoRun>;
  status(): SchedulerStatus;
}

export interface SchedulerOptions {
  readonly intervalSeconds?: number;
  /** Notifications' delivery (src/engine/notify): webhooks' subscribers, whether e-mail is on. */
  readonly notify?: NotifyOptions;
  /** The clock of the loop's runs (tests move it). */
  readonly clock?: () => Date;
  /** Where webhooks' addresses and secrets are read (default: the process's environment). */
  readonly env?: WebhookEnv;
  /** Uploads never attached are swept once a day old (a step of each run). */
  readonly files?: Pick<Files, 'sweep'>;
}

import type { Files } from '../files/files';
import { STAGED_FILE_LIFETIME_MS } from '../files/sweep';

/** How long one run may take records before it lets the next tick go on: the process has pages to serve. */
const RUN_BUDGET_MS = 2_000;
/** With work left after a run, the next one comes this soon rather than a whole interval later. */
const CATCH_UP_MS = 250;

export function createScheduler(ctx: OpsContext, options: SchedulerOptions = {}): Scheduler {
  const intervalSeconds = options.intervalSeconds ?? DEFAULT_SCHEDULER_SECONDS;
  const clock = options.clock ?? (() => new Date());
  const webhooks = webhookStep(ctx, options.env ?? process.env);
  const notifications = createNotifySteps(ctx, options.notify ?? {});
  const hasFiles = options.files !== undefined && hasFileFields(ctx.model);
  const hasWork = autoTransitions(ctx.model.entities).length > 0 || notifications.active || webhooks !== null || hasFiles;
  let stopNudges: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let current: Promise<unknown> = Promise.resolve();
  let lastRunAt: Date | null = null;
  let lastTaken = 0;
  let backlog = 0;
  let lastError: string | null = null;
  /** Refusals already logged, by record and reason: a due record whose guard fails is logged once, not every tick. */
  const logged = new Set<string>();

  async function runOnce(now: Date = clock()): Promise<AutoRun> {
    const deadline = Date.now() + RUN_BUDGET_MS;
    const run = await takeDueTransitions(ctx, now, deadline);
    // Then what concerns people: reminders due, the outbox, e-mail and digests (notify/steps.ts).
    const notified = await notifications.run(now, deadline);
    for (const refusal of run.refused) {
      const key = `${refusal.entity}:${refusal.id}:${refusal.transition}:${refusal.code}`;
      if (logged.has(key)) continue;
      if (logged.size > 10_000) logged.clear();
      logged.add(key);
      logLine('warn', 'automatic transition refused', { ...refusal });
    }
    if (hasFiles) await options.files?.sweep(new Date(now.getTime() - STAGED_FILE_LIFETIME_MS));
    lastRunAt = new Date();
    lastTaken = run.taken;
    backlog = await countDue(ctx, now);
    const sent = webhooks ? await webhooks(now) : null;
    lastError = null;
    return notified.more || sent?.more ? { ...run, more: true } : run;
  }

  function schedule(delayMs: number): void {
    if (!running) return;
    timer = setTimeout(tick, delayMs);
    // A server's scheduler never holds the process open by itself.
    timer.unref();
  }

  function tick(): void {
    timer = null;
    const run = runOnce().then(
      (result) => schedule(result.more ? CATCH_UP_MS : intervalSeconds * 1000),
      (error: unknown) => {
        // The database away, most likely: the availability door answers for it; try again next interval.
        lastError = error instanceof Error ? error.message : String(error);
        logLine('warn', 'scheduler run failed', { error: lastError });
        schedule(intervalSeconds * 1000);
      },
    );
    current = run;
  }

  return {
    start() {
      if (running || !hasWork) return;
      running = true;
      // A commit that wrote outbox rows wakes the dispatcher at once, not at the next tick.
      stopNudges = notifications.active ? onNudge(() => notifications.dispatchSoon()) : null;
      schedule(0);
    },
    async stop() {
      running = false;
      stopNudges?.();
      stopNudges = null;
      await notifications.idle();
      if (timer) clearTimeout(timer);
      timer = null;
      await current.catch(() => undefined);
    },
    runOnce,
    status: () => ({
      running,
      intervalSeconds,
      lastRunAt: lastRunAt?.toISOString() ?? null,
      lastTaken,
      backlog,
      lastError,
    }),
  };
}
