import type { EntityModel } from '../spec/model';
import type { Values, WalkStep } from './workflow-walk';

/*
 * A demo record's history, in the rows ops write (ops/history.ts): created, then each transition
 * with the fields it changed, so that its page tells the story its state implies.
 */

/** One row of nf_audit, as the seeder inserts it. */
export interface HistoryRow {
  readonly at: Date;
  readonly actor_id: number | null;
  readonly action: string;
  /** JSON, in the shape ops write (history.ts): `{ fields: { name: [from, to] }, transition? }`. */
  readonly changes: string;
}

/** The declared fields whose value differs, as history stores them: name → [from, to]. */
function fieldDiff(entity: EntityModel, before: Values | null, after: Values): Record<string, [unknown, unknown]> {
  const diff: Record<string, [unknown, unknown]> = {};
  for (const field of entity.fields) {
    const from = before?.[field.name] ?? null;
    const to = after[field.name] ?? null;
    const same = from instanceof Date && to instanceof Date ? from.getTime() === to.getTime() : from === to;
    if (!same) diff[field.name] = [from, to];
  }
  return diff;
}

export function historyOf(entity: EntityModel, creator: number | null, created: Values, steps: readonly WalkStep[]): HistoryRow[] {
  return [
    {
      at: created.createdAt as Date,
      actor_id: creator,
      action: 'create',
      changes: JSON.stringify({ fields: fieldDiff(entity, null, created) }),
    },
    ...steps.map((step) => ({
      at: step.at,
      actor_id: step.actorId,
      action: step.transition.name,
      changes: JSON.stringify({
        fields: fieldDiff(entity, step.before, step.after),
        transition: {
          name: step.transition.name,
          from: step.from,
          to: step.to,
          comment: step.comment,
          ...(step.automatic ? { automatic: true } : {}),
        },
      }),
    })),
  ];
}
