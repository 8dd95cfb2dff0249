import { chooseTarget } from '../workflow/targets';
// The ops write kit: which transitions an actor is allowed on a record, for the read (offers) and the writes.

import { sql, type SqlBool } from 'kysely';
import { transitionScope } from '../access/authorize';
import type { AppModel, EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { checkTransition } from '../workflow/transitions';
import type { RecordData, TransitionOffer } from './types';
import type { Actor } from '../ground/actor';

/**
 * Whether the actor is allowed on this record by the transition's scope (who from `allow`, which
 * records from the grants, within the read scope), decided by the database with the same
 * predicate as lists use.
 */
export async function grantedOn(
  model: AppModel,
  db: DynamicDatabase,
  entity: EntityModel,
  actor: Actor,
  name: string,
  id: number,
): Promise<boolean> {
  const scope = transitionScope(model, entity, actor, name);
  if (!scope) return false;
  if (scope.all) return true;
  return Boolean(await db.selectFrom(entity.table).select('id').where('id', '=', id).where(scope.sql).executeTakeFirst());
}

/** Select expressions telling, per transition, whether the actor is allowed on the row (SQL). */
export function grantedColumns(model: AppModel, entity: EntityModel, actor: Actor) {
  return (entity.workflow?.transitions ?? []).map((t) => {
    const scope = transitionScope(model, entity, actor, t.name);
    const predicate = scope ? scope.sql : sql<SqlBool>`false`;
    return sql<boolean>`(${predicate})`.as(`nf_may_${t.name}`);
  });
}

/**
 * The transitions to offer on a record (read whole, before redaction) given which the actor is
 * allowed on (`granted`, from grantedColumns): available ones, and blocked ones with why. Those
 * from other states, or reserved to others, are not offered; an owner's passed window is.
 */
export function transitionOffers(
  model: AppModel,
  entity: EntityModel,
  record: RecordData,
  actor: Actor,
  granted: Readonly<Record<string, unknown>>,
  now: Date,
): TransitionOffer[] {
  const offers: TransitionOffer[] = [];
  for (const transition of entity.workflow?.transitions ?? []) {
    const allowed = Boolean(granted[`nf_may_${transition.name}`]);
    const check = checkTransition(model, entity, record, actor, transition, now, allowed);
    if (check.reason === 'wrong_state') continue;
    if (check.reason === 'not_allowed' && check.code === 'TRANSITION_NOT_ALLOWED') continue;
    offers.push({
      name: transition.name,
      label: transition.label,
      // Where it leads from the record as it is now (a target chosen by the data may change with its input).
      to: chooseTarget(model, transition, record, actor, now),
      available: check.allowed,
      ...(check.allowed ? {} : { blockedReason: check.message ?? 'It cannot be taken now.' }),
      requires: transition.requires,
      ...(transition.comment ? { comment: transition.comment } : {}),
    });
  }
  return offers;
}
