import { checkWithin } from './within';
import { checkPathRules, checkReferences, checkRules, checkVersion, lockInScope, readBack, translating, writeLocked } from './write-kit';
import { authorize, authorizeScope, type RowScope } from '../access/authorize';
import { checkWritable } from '../access/fields';
import { forbidden } from '../access/refusal';
import { authorId } from '../access/visitor';
import { NinefoldError, notFound } from '../errors/ninefold-error';
import { parseRecordInput, type ParsedValues } from '../rules/record-input';
import type { AppModel, EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { entityOf, type OpsContext } from './context';
import { inTransaction } from './transaction';
import { dueOnCreate, withDueTimes } from './due';
import { withComputedOnCreate } from './computed';
import { ownRecordDefaults } from './own-record-defaults';
import { numberSlugs } from './slugs';
import type { StoredValue } from '../rules/field-schema';
import { writeHistory } from './history';
import { checkLimits } from './limits';
import { checkUniqueWhen } from './unique-when';
import { checkExclusive } from './exclusive';
import { isRecordId } from './record-id';
import { parentSteps, takeParentSteps } from './related';
import { finalStateError, isFinal } from './final-state';
import { recordColumns, rowToRecord, valuesToRow } from './records';
import { givenSets, insertReferenceSets } from './reference-sets';
import { nextOrigin } from './reference-effects';
import { takeReferenceEffects } from './transition';
import type { CreateOptions, RecordData, RecordInput } from './types';
import type { Actor } from '../ground/actor';
import { inSentence } from '../spec/naming';

/**
 * Creates a record: the actor needs a role that grants create, may give only fields it may
 * write (FORBIDDEN_FIELD otherwise), and the new record must fall within the create scope (a
 * customer's own ticket): checked on the inserted row, in the same transaction, which a refusal
 * rolls back.
 */
export async function createRecord(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  input: RecordInput,
  options: CreateOptions = {},
): Promise<RecordData> {
  const entity = entityOf(ctx.model, entityName);
  const scope = authorizeScope(ctx.model, entity, actor, 'create');
  const now = new Date();
  const values = checkCreateInput(ctx.model, entity, actor, input, now, await ownRecordDefaults(ctx, entity, actor, input));
  return translating(ctx.model, entity, () =>
    inTransaction(ctx.db, async (trx) =>
      readBack(ctx, trx, actor, entity, await insertChecked(ctx, trx, actor, entity, scope, values, now, options)),
    ),
  );
}

/** The workflow state a new record starts in, by field name (nothing without a workflow). */
export function initialState(entity: EntityModel): Record<string, string> {
  return entity.workflow ? { [entity.workflow.field]: entity.workflow.initial } : {};
}

/**
 * What a create checks before its transaction (createMany too, row by row): only fields the
 * actor may write, each value by its field's schema (defaults filled, the actor's own records
 * as `resolvedDefaults` gives them), the computed fields filled, the entity rules on the record
 * as it would be stored.
 */
export function checkCreateInput(
  model: AppModel,
  entity: EntityModel,
  actor: Actor,
  input: RecordInput,
  now: Date,
  resolvedDefaults: Readonly<Record<string, StoredValue>> = {},
): ParsedValues {
  checkWritable(entity, actor, 'create', input);
  const values = withComputedOnCreate(entity, parseRecordInput(model, entity, input, 'create', actor, resolvedDefaults));
  checkRules(
    model,
    entity,
    withDueTimes(entity, { ...values, ...initialState(entity), createdAt: now, updatedAt: now, createdBy: authorId(actor) }, null),
    now,
    null,
    actor,
  );
  return values;
}

/** The row a checked new record is inserted as: its values, due times, initial state and author. */
export function newRow(entity: EntityModel, actor: Actor, values: ParsedValues): Record<string, unknown> {
  return {
    ...valuesToRow(entity, values),
    ...dueOnCreate(entity, values),
    ...(entity.workflow ? { [entity.workflow.column]: entity.workflow.initial } : {}),
    // A visitor (not signed in) has no account: the record has no author.
    created_by: authorId(actor),
    updated_by: authorId(actor),
  };
}

/**
 * Inserts a record whose input checkCreateInput accepted, inside `trx`: its references, the
 * steps of the record it answers, limits, the create scope on the inserted row, its history.
 */
export async function insertChecked(
  ctx: OpsContext,
  trx: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  scope: RowScope,
  checkedValues: ParsedValues,
  now: Date,
  options: CreateOptions = {},
): Promise<RecordData> {
  const values = await numberSlugs(trx, entity, checkedValues, null);
  await checkReferences(ctx.model, trx, entity, values, actor);
  await checkWithin(ctx.model, trx, entity, values, null);
  const steps = await parentSteps(ctx, trx, actor, entity, values, options.replyWith);
  await checkLimits(ctx.model, trx, entity, actor, null, { ...values, ...initialState(entity) }, now);
  await checkUniqueWhen(ctx.model, trx, entity, null, { ...values, ...initialState(entity) });
  await checkExclusive(ctx.model, trx, entity, null, { ...values, ...initialState(entity) });
  const row = await trx
    .insertInto(entity.table)
    .values(newRow(entity, actor, values))
    .returning(recordColumns(entity))
    .executeTakeFirstOrThrow();
  if (!scope.all) {
    const inScope = await trx
      .selectFrom(entity.table)
      .select('id')
      .where('id', '=', row.id as number)
      .where(scope.sql)
      .executeTakeFirst();
    if (!inScope) throw outOfCreateScope(actor, entity);
  }
  await insertReferenceSets(trx, entity, actor, [{ id: Number(row.id), values }]);
  const created = { ...rowToRecord(entity, row), ...givenSets(entity, values) };
  await checkPathRules(ctx.model, trx, entity, created, now, null, actor);
  await writeHistory(trx, entity, actor, { action: 'create', recordId: created.id, before: null, after: created });
  await takeParentSteps(ctx, trx, actor, steps);
  const cause = { entity: entity.name, recordId: created.id, action: 'create' };
  await takeReferenceEffects(ctx, trx, actor, entity, created, entity.onCreate, nextOrigin(cause, undefined), now);
  return created;
}

export function outOfCreateScope(actor: Actor, entity: EntityModel): NinefoldError {
  return forbidden(actor, entity, 'create', `You are not allowed to create this ${inSentence(entity.label)}.`);
}

export async function updateRecord(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  id: number,
  input: RecordInput,
  expectedVersion: number,
): Promise<RecordData> {
  const entity = entityOf(ctx.model, entityName);
  if (!isRecordId(id)) throw notFound(inSentence(entity.label));
  const scope = authorize(ctx.model, entity, actor, 'update');
  const version = checkVersion(expectedVersion);
  checkWritable(entity, actor, 'update', input);
  const values = parseRecordInput(ctx.model, entity, input, 'update', actor);
  return translating(ctx.model, entity, () =>
    inTransaction(ctx.db, async (trx) => {
      const current = await lockInScope(ctx, trx, actor, entity, id, scope, version, 'update');
      if (isFinal(entity, current)) throw finalStateError(ctx.model, entity);
      // An update that names no field (an edit form whose user changed nothing) is allowed, checked and
      // answered as any other, and writes nothing: no new version, no history entry, no notification.
      if (Object.keys(values).length === 0) return readBack(ctx, trx, actor, entity, current);
      await checkReferences(ctx.model, trx, entity, values, actor);
      return readBack(
        ctx,
        trx,
        actor,
        entity,
        await writeLocked(ctx.model, trx, actor, entity, current, values, new Date(), { action: 'update' }),
      );
    }),
  );
}

export async function deleteRecord(ctx: OpsContext, actor: Actor, entityName: string, id: number, expectedVersion?: number): Promise<void> {
  const entity = entityOf(ctx.model, entityName);
  if (!isRecordId(id)) throw notFound(inSentence(entity.label));
  const scope = authorize(ctx.model, entity, actor, 'delete');
  const version = expectedVersion === undefined ? undefined : checkVersion(expectedVersion);
  await translating(ctx.model, entity, () =>
    inTransaction(ctx.db, async (trx) => {
      const current = await lockInScope(ctx, trx, actor, entity, id, scope, version, 'delete');
      await trx.deleteFrom(entity.table).where('id', '=', id).execute();
      await writeHistory(trx, entity, actor, { action: 'delete', recordId: id, before: current, after: null });
    }),
  );
}
