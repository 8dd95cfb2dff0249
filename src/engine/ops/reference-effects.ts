// Consequences of a write on the records its reference fields point at (`effects: [{ on, ... }]`
// of a transition, `onCreate` of an entity), taken in the write's own transaction.

import { authorize } from '../access/authorize';
import { checkWritable } from '../access/fields';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import type { ParsedValues } from '../rules/record-input';
import type { EntityModel, ReferenceEffectModel } from '../spec/model';
import { inSentence } from '../spec/naming';
import type { DynamicDatabase } from '../store/types';
import { effectValue, findTransition } from '../workflow/transitions';
import { entityOf, type OpsContext } from './context';
import { finalStateError, isFinal } from './final-state';
import type { WriteCause } from './history';
import { recordColumns, rowToRecord } from './records';
import { takeTransition, takeTransitionAsSystem } from './transition';
import type { RecordData } from './types';
import { checkReferences, lockInScope, writeLocked } from './write-kit';

/**
 * How deep effects may chain (a loan's transition takes the item's, whose effect takes the
 * shelf's...). A spec whose effects loop back would otherwise go round until the database gave up.
 */
const MAX_EFFECT_DEPTH = 5;

/** Where an effect comes from: the write that caused it, and how many effects deep it is. */
export interface EffectOrigin {
  readonly cause: WriteCause;
  readonly depth: number;
}

/** The origin of the effects of a write made for `cause`, one level below the write's own origin (if it was an effect too). */
export function nextOrigin(cause: WriteCause, origin: EffectOrigin | undefined): EffectOrigin {
  return { cause, depth: (origin?.depth ?? 0) + 1 };
}

/**
 * Takes each effect on the record its reference field points at in `record` (as written), in
 * order, inside `trx`: a refusal of one is thrown as it is and refuses the whole write. An empty
 * reference has nothing to act on. Each referenced row is locked (FOR UPDATE) before it is read,
 * so concurrent writers of it take turns, and its version goes up like any write's.
 */
export async function takeReferenceEffects(
  ctx: OpsContext,
  trx: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  record: RecordData,
  effects: readonly ReferenceEffectModel[],
  origin: EffectOrigin,
  now: Date,
): Promise<void> {
  if (effects.length === 0) return;
  if (origin.depth > MAX_EFFECT_DEPTH) {
    throw new NinefoldError('CONFLICT', `The effects of this change on other records go more than ${MAX_EFFECT_DEPTH} records deep.`);
  }
  for (const effect of effects) {
    const id = record[effect.on];
    if (typeof id !== 'number') continue;
    const target = entityOf(ctx.model, effect.target);
    if (effect.kind === 'set') await setOnReferenced(ctx, trx, actor, target, id, effect, origin, now);
    else {
      const transition = findTransition(target, effect.transition);
      if (effect.as === 'system') await takeTransitionAsSystem(ctx, trx, actor, target, id, transition, origin);
      // As if the actor took it themselves: the same path, under a savepoint of this transaction.
      else await takeTransition({ ...ctx, db: trx }, actor, target, id, transition, {}, undefined, origin);
    }
  }
}

/**
 * Sets a field of the referenced record. As the actor: the field must be one they may write and
 * the record in their update scope, as for an update of their own; as the system, neither is
 * asked. Either way a final state freezes it, and its rules, limits and references hold.
 */
async function setOnReferenced(
  ctx: OpsContext,
  trx: DynamicDatabase,
  actor: Actor,
  target: EntityModel,
  id: number,
  effect: Extract<ReferenceEffectModel, { kind: 'set' }>,
  origin: EffectOrigin,
  now: Date,
): Promise<void> {
  const values: ParsedValues = { [effect.set]: effectValue(effect.to, actor, now) } as ParsedValues;
  let current: RecordData;
  if (effect.as === 'actor') {
    checkWritable(target, actor, 'update', values);
    current = await lockInScope(ctx, trx, actor, target, id, authorize(ctx.model, target, actor, 'update'), undefined, 'update');
  } else current = await lockForEffect(trx, target, id);
  if (isFinal(target, current)) throw finalStateError(ctx.model, target);
  await checkReferences(ctx.model, trx, target, values, actor);
  await writeLocked(ctx.model, trx, actor, target, current, values, now, { action: 'update', cause: origin.cause });
}

/** The referenced record, locked until the transaction ends, whoever may read it (the engine's own authority). */
export async function lockForEffect(trx: DynamicDatabase, entity: EntityModel, id: number): Promise<RecordData> {
  const row = await trx.selectFrom(entity.table).select(recordColumns(entity)).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw notFound(inSentence(entity.label));
  return rowToRecord(entity, row);
}
