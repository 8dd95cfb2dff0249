// The ops write kit: the steps every write of an existing record takes (check, lock in scope, write with
// version and history, read back), shared by updates, deletes and transitions so that none imports another.

import { sql } from 'kysely';
import { authorize, rowScope } from '../access/authorize';
import { fieldSight } from '../access/field-sight';
import { forbidden } from '../access/refusal';
import { authorId } from '../access/visitor';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import { missingReferences } from './references-exist';
import { checkEntityRules, hasPaths } from '../rules/entity-rules';
import { rulesRefusal } from '../rules/rules-refusal';
import { actorContext } from '../condition/evaluate';
import { withPathValues } from './path-values';
import type { ParsedValues } from '../rules/record-input';
import type { AppModel, EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import type { OpsContext } from './context';
import { translateDatabaseError } from './db-errors';
import { dueOnUpdate, withDueTimes } from './due';
import { withComputedOnUpdate } from './computed';
import { numberSlugs } from './slugs';
import { writeHistory, type HistoryEvent } from './history';
import { fileNamesOf } from '../files/file-names';
import { fileFields } from '../spec/file-fields';
import { checkLimits } from './limits';
import { checkUniqueWhen } from './unique-when';
import { checkExclusive } from './exclusive';
import { checkWithin } from './within';
import { finalStateError, isFinal } from './final-state';
import { recordColumns, rowToRecord, valuesToRow } from './records';
import { replaceReferenceSets, visibleSets } from './reference-sets';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';
import { inSentence } from '../spec/naming';

/**
 * Referenced records and users must exist, and referenced records must be ones the actor may
 * read: one query per reference field given, so that a wrong id is a field error rather than a
 * foreign-key failure. A record out of the actor's scope is refused exactly like a missing one,
 * so that ids cannot be probed (nor records of others attached to, like a comment on someone
 * else's ticket).
 */
export async function checkReferences(
  model: AppModel,
  db: DynamicDatabase,
  entity: EntityModel,
  values: ParsedValues,
  actor: Actor,
): Promise<void> {
  const errors = (await missingReferences(model, db, entity, [values], actor)).get(0);
  if (errors) throw new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors: errors });
}

/** VALIDATION_FAILED when the record as it would be stored breaks an entity rule of the spec. */
export function checkRules(
  model: AppModel,
  entity: EntityModel,
  record: Readonly<Record<string, unknown>>,
  now: Date,
  before: Readonly<Record<string, unknown>> | null,
  actor: Actor,
): void {
  // Rules through a path (`patient.account`) need the database: checkPathRules, inside the write's transaction.
  const errors = checkEntityRules(model, entity, record, now, before, actorContext(actor), 'plain');
  if (errors.length > 0) throw rulesRefusal(model, entity, errors);
}

/** As checkRules for the rules that compare a path, with the paths' values read in `trx` (nothing when there are none). */
export async function checkPathRules(
  model: AppModel,
  trx: DynamicDatabase,
  entity: EntityModel,
  record: Readonly<Record<string, unknown>>,
  now: Date,
  before: Readonly<Record<string, unknown>> | null,
  actor: Actor,
): Promise<void> {
  const rules = Object.values(entity.rules).filter(hasPaths);
  if (rules.length === 0) return;
  const loaded = await withPathValues(
    model,
    trx,
    entity,
    rules.flatMap((r) => [r.when, r.assert]),
    record,
  );
  const errors = checkEntityRules(model, entity, loaded, now, before, actorContext(actor), 'paths');
  if (errors.length > 0) throw rulesRefusal(model, entity, errors);
}

export async function translating<T>(model: AppModel, entity: EntityModel, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw translateDatabaseError(model, entity, error);
  }
}

/**
 * The record a write made, as the actor may see it: read back through the read scope, in the
 * write's transaction. In it, with the fields the actor may read; out of it (a visitor's enquiry,
 * a draft moved to another team), only its receipt (id, version and times): a write's answer
 * tells no more than a read would.
 */
export async function readBack(
  ctx: OpsContext,
  trx: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  record: RecordData,
): Promise<RecordData> {
  const scope = rowScope(ctx.model, entity, actor, 'read');
  const sight = fieldSight(ctx.model, entity, actor);
  // Whether the record is in the read scope, and which grants see it (their field rules decide what is shown).
  const seen =
    scope === null
      ? undefined
      : scope.all && sight.uniform
        ? {}
        : await trx
            .selectFrom(entity.table)
            .select('id')
            .select(sight.columns)
            .where('id', '=', record.id)
            .where(scope.sql)
            .executeTakeFirst();
  if (!seen) return { id: record.id, version: record.version, createdAt: record.createdAt, updatedAt: record.updatedAt };
  return visibleSets(ctx.model, trx, actor, entity, sight.redact(record, seen));
}

export function checkVersion(version: unknown): number {
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    throw new NinefoldError('PRECONDITION_REQUIRED', 'Send the version of the record you saw.');
  }
  return version;
}

/**
 * The record as stored, locked until the transaction ends so that concurrent writers take turns:
 * the version the actor saw must still be the stored one (STALE_VERSION otherwise). Out of the
 * action's scope: FORBIDDEN when readable, NOT_FOUND otherwise.
 */
export async function lockInScope(
  ctx: OpsContext,
  trx: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  id: number,
  scope: ReturnType<typeof authorize>,
  version: number | undefined,
  action: 'update' | 'delete' | `transition:${string}`,
): Promise<RecordData> {
  const row = await trx
    .selectFrom(entity.table)
    .select(recordColumns(entity))
    .where('id', '=', id)
    .where(scope)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return outOfScope(ctx.model, trx, actor, entity, id, action);
  if (version !== undefined && row.version !== version) throw staleVersion(entity, Number(row.version));
  return rowToRecord(entity, row);
}

export function staleVersion(entity: EntityModel, current: number): NinefoldError {
  return new NinefoldError(
    'STALE_VERSION',
    `This ${inSentence(entity.label)} was changed by someone else (now version ${current}). Reload it to see the changes.`,
  );
}

/**
 * A record out of the action's scope: FORBIDDEN when the actor may read it (a customer's closed
 * ticket), NOT_FOUND otherwise, as if absent, so that ids cannot be probed.
 */
async function outOfScope(
  model: AppModel,
  db: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  id: number,
  action: 'update' | 'delete' | `transition:${string}`,
): Promise<never> {
  const readScope = rowScope(model, entity, actor, 'read');
  const readable =
    readScope &&
    (await db.selectFrom(entity.table).select(recordColumns(entity)).where('id', '=', id).where(readScope.sql).executeTakeFirst());
  // A frozen record says so, rather than "not allowed", to whoever may read it.
  if (readable && action === 'update' && isFinal(entity, rowToRecord(entity, readable))) throw finalStateError(model, entity);
  if (readable)
    throw forbidden(
      actor,
      entity,
      action,
      `You are not allowed to ${action.startsWith('transition:') ? 'change' : action} this ${inSentence(entity.label)}.`,
    );
  throw notFound(inSentence(entity.label));
}

/**
 * Writes `changes` (field values, and the state for a transition) to a record read and locked by
 * lockInScope in this transaction: the record as it would be stored must meet the entity rules
 * and limits; the version goes up by one and the history gets the event, in the same transaction.
 */
export async function writeLocked(
  model: AppModel,
  trx: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  current: RecordData,
  givenChanges: Readonly<Record<string, unknown>>,
  now: Date,
  event: Pick<HistoryEvent, 'action' | 'transition' | 'cause'>,
): Promise<RecordData> {
  // The computed fields the changes move are written with them (a slug numbered among the others').
  const changes = await numberSlugs(trx, entity, withComputedOnUpdate(entity, current, givenChanges), current.id);
  // As it would be stored: the write's time and the due times it moves, which rules and limits may read.
  const after = withDueTimes(entity, { ...current, ...changes, updatedAt: now }, current, changes);
  checkRules(model, entity, after, now, current, actor);
  await checkWithin(model, trx, entity, after, new Set(Object.keys(changes)));
  await checkPathRules(model, trx, entity, after, now, current, actor);
  await checkLimits(model, trx, entity, actor, current, after, now);
  // The names of the files it holds, read before the pairs' write deletes those it takes off (the history names them).
  const fileNames = await fileNamesOf(
    trx,
    fileFields(entity)
      .filter((field) => Object.hasOwn(changes, field.name) && Array.isArray(current[field.name]))
      .flatMap((field) => current[field.name] as number[]),
  );
  // Pairs first: the UPDATE's RETURNING below reads the sets as this transaction left them.
  await replaceReferenceSets(model, trx, entity, actor, current, changes);
  await checkUniqueWhen(model, trx, entity, current, after);
  await checkExclusive(model, trx, entity, current, after);
  const row = await trx
    .updateTable(entity.table)
    .set({
      ...valuesToRow(entity, changes),
      ...dueOnUpdate(entity, current, changes),
      version: sql`version + 1`,
      updated_at: sql`now()`,
      updated_by: authorId(actor),
    })
    .where('id', '=', current.id)
    .returning(recordColumns(entity))
    .executeTakeFirstOrThrow();
  const updated = rowToRecord(entity, row);
  await writeHistory(trx, entity, actor, { ...event, recordId: current.id, before: current, after: updated, fileNames });
  return updated;
}
