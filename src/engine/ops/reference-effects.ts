// Consequences of a write on the records its reference fields point at (`effects: [{ on, ... }]`
// of a transition, `onCreate` of an entity), taken in the write's own transaction.

import { authorize } from '../access/authorize';
import { checkWritable } from '../access/fields';
import { notFound } from '../errors/ninefold-error';
import type { Actor } from '../ground/actor';
import type { ParsedValues } from '../rules/record-input';
import type { EntityModel, ReferenceEffectModel } from '../spec/model';
import { inSentence } from '../spec/naming';
import type { DynamicDatabase } from '../store/types';
import { effectValue } from '../workflow/transitions';
import type { OpsContext } from './context';
import { finalStateError, isFinal } from './final-state';
import type { WriteCause } from './history';
import { recordColumns, rowToRecord } from './records';
import type { RecordData } from './types';
import { checkReferences, lockInScope, writeLocked } from './write-kit';

/**
 * How deep effects may chain (a loan's transition takes the item's, whose effect takes the
 * shelf's...). A spec whose effects loop back would otherwise go round until the database gave up.
 */
export const MAX_EFFECT_DEPTH = 5;

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
 * Sets a field of the referenced record. As the actor: the field must be one they may write and
 * the record in their update scope, as for an update of their own; as the system, neither is
 * asked. Either way a final state freezes it, and its rules, limits and references hold.
 */
export async function setOnReferenced(
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
