import { sql } from 'kysely';
import { authorize, authorizeScope, rowScope } from '../access/authorize';
import { checkWritable, readableFields, redactRecord } from '../access/fields';
import { forbidden } from '../access/refusal';
import { NinefoldError, notFound, type FieldError } from '../errors/ninefold-error';
import { parseRecordInput, type ParsedValues } from '../rules/record-input';
import type { AppModel, EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { entityOf, type OpsContext } from './context';
import { translateDatabaseError } from './db-errors';
import { isRecordId } from './read';
import { recordColumns, rowToRecord, valuesToRow } from './records';
import type { Actor, RecordData, RecordInput } from './types';

/**
 * Referenced records and users must exist, and referenced records must be ones the actor may
 * read: one query per reference field given, so that a wrong id is a field error rather than a
 * foreign-key failure. A record out of the actor's scope is refused exactly like a missing one,
 * so that ids cannot be probed (nor records of others attached to, like a comment on someone
 * else's ticket).
 */
async function checkReferences(model: AppModel, db: DynamicDatabase, entity: EntityModel, values: ParsedValues, actor: Actor): Promise<void> {
  const errors: FieldError[] = [];
  await Promise.all(
    entity.fields.map(async (field) => {
      const id = values[field.name];
      if ((field.type !== 'reference' && field.type !== 'user') || typeof id !== 'number') return;
      const missing = () => errors.push({ field: field.name, code: 'unknown_reference', message: `${field.label}: no record #${id}.` });
      if (field.type === 'user') {
        const found = await db.selectFrom('nf_user').select('id').where('id', '=', id).executeTakeFirst();
        if (!found) missing();
        return;
      }
      const target = model.entitiesByName[field.referenceTo!];
      const scope = rowScope(model, target, actor, 'read');
      if (!scope) return void missing();
      const found = await db.selectFrom(target.table).select('id').where('id', '=', id).where(scope.sql).executeTakeFirst();
      if (!found) missing();
    }),
  );
  if (errors.length > 0) throw new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors: errors });
}

async function translating<T>(entity: EntityModel, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw translateDatabaseError(entity, error);
  }
}

/** The record as the actor may see it after writing it. */
function shown(entity: EntityModel, actor: Actor, record: RecordData, action: 'create' | 'update'): RecordData {
  return redactRecord(entity, record, new Set(readableFields(entity, actor, action)));
}

/**
 * Creates a record: the actor needs a role that grants create, may give only fields it may
 * write (FORBIDDEN_FIELD otherwise), and the new record must fall within the create scope (a
 * customer's own ticket): checked on the inserted row, in the same transaction, which a refusal
 * rolls back.
 */
export async function createRecord(ctx: OpsContext, actor: Actor, entityName: string, input: RecordInput): Promise<RecordData> {
  const entity = entityOf(ctx.model, entityName);
  const scope = authorizeScope(ctx.model, entity, actor, 'create');
  checkWritable(entity, actor, 'create', input);
  const values = parseRecordInput(ctx.model, entity, input, 'create', actor);
  const record = await translating(entity, () =>
    ctx.db.transaction().execute(async (trx) => {
      await checkReferences(ctx.model, trx, entity, values, actor);
      const row = await trx
        .insertInto(entity.table)
        .values({
          ...valuesToRow(entity, values),
          ...(entity.workflow ? { [entity.workflow.column]: entity.workflow.initial } : {}),
          created_by: actor.userId,
          updated_by: actor.userId,
        })
        .returning(recordColumns(entity))
        .executeTakeFirstOrThrow();
      if (!scope.all) {
        const inScope = await trx.selectFrom(entity.table).select('id').where('id', '=', row.id as number).where(scope.sql).executeTakeFirst();
        if (!inScope) throw forbidden(actor, entity, 'create', `You are not allowed to create this ${entity.label.toLowerCase()}.`);
      }
      return rowToRecord(entity, row);
    }),
  );
  return shown(entity, actor, record, 'create');
}

function checkVersion(version: unknown): number {
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    throw new NinefoldError('PRECONDITION_REQUIRED', 'Send the version of the record you saw.');
  }
  return version;
}

/**
 * After a write matched no row: present in the action's scope is STALE_VERSION; out of it but
 * readable by the actor (a customer's closed ticket) is FORBIDDEN; otherwise NOT_FOUND, as if
 * absent, so that ids cannot be probed.
 */
async function missOrStale(
  model: AppModel,
  db: DynamicDatabase,
  actor: Actor,
  entity: EntityModel,
  id: number,
  scope: ReturnType<typeof authorize>,
  action: 'update' | 'delete',
): Promise<never> {
  const exists = await db.selectFrom(entity.table).select('version').where('id', '=', id).where(scope).executeTakeFirst();
  if (exists) {
    throw new NinefoldError('STALE_VERSION', `This ${entity.label.toLowerCase()} was changed by someone else (now version ${exists.version}). Reload it to see the changes.`);
  }
  const readScope = rowScope(model, entity, actor, 'read');
  const readable = readScope && (await db.selectFrom(entity.table).select('id').where('id', '=', id).where(readScope.sql).executeTakeFirst());
  if (readable) throw forbidden(actor, entity, action, `You are not allowed to ${action} this ${entity.label.toLowerCase()}.`);
  throw notFound(entity.label.toLowerCase());
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
  if (!isRecordId(id)) throw notFound(entity.label.toLowerCase());
  const scope = authorize(ctx.model, entity, actor, 'update');
  const version = checkVersion(expectedVersion);
  checkWritable(entity, actor, 'update', input);
  const values = parseRecordInput(ctx.model, entity, input, 'update', actor);
  const record = await translating(entity, () =>
    ctx.db.transaction().execute(async (trx) => {
      await checkReferences(ctx.model, trx, entity, values, actor);
      const row = await trx
        .updateTable(entity.table)
        .set({
          ...valuesToRow(entity, values),
          version: sql`version + 1`,
          updated_at: sql`now()`,
          updated_by: actor.userId,
        })
        .where('id', '=', id)
        .where('version', '=', version)
        .where(scope)
        .returning(recordColumns(entity))
        .executeTakeFirst();
      if (!row) return missOrStale(ctx.model, trx, actor, entity, id, scope, 'update');
      return rowToRecord(entity, row);
    }),
  );
  return shown(entity, actor, record, 'update');
}

export async function deleteRecord(ctx: OpsContext, actor: Actor, entityName: string, id: number, expectedVersion?: number): Promise<void> {
  const entity = entityOf(ctx.model, entityName);
  if (!isRecordId(id)) throw notFound(entity.label.toLowerCase());
  const scope = authorize(ctx.model, entity, actor, 'delete');
  const version = expectedVersion === undefined ? undefined : checkVersion(expectedVersion);
  await translating(entity, () =>
    ctx.db.transaction().execute(async (trx) => {
      let query = trx.deleteFrom(entity.table).where('id', '=', id).where(scope);
      if (version !== undefined) query = query.where('version', '=', version);
      const result = await query.executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) await missOrStale(ctx.model, trx, actor, entity, id, scope, 'delete');
    }),
  );
}
