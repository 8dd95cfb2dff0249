import { isRecordId } from './record-id';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { authorize, rowScope } from '../access/authorize';
import { fieldSight } from '../access/field-sight';
import { notFound } from '../errors/ninefold-error';
import { entityOf, type OpsContext } from './context';
import { recordColumns, rowToRecord } from './records';
import { withReferenceTitles } from './reference-sets';
import { isFinal } from './final-state';
import { grantedColumns, transitionOffers } from './transition-offers';
import { withPathValues } from './path-values';
import { transitionConditions } from '../workflow/transitions';
import type { AppModel, EntityModel } from '../spec/model';
import type { RecordView } from './types';
import type { Actor } from '../ground/actor';
import { inSentence } from '../spec/naming';

/**
 * One record in the actor's read scope, without the fields the actor may not read; NOT_FOUND
 * when absent or out of scope (ids cannot be probed). The same query tells which workflow
 * transitions the actor is allowed on it, so the offers cost no extra round trip.
 */
export async function getRecord(ctx: OpsContext, actor: Actor, entityName: string, id: number): Promise<RecordView> {
  const entity = entityOf(ctx.model, entityName);
  if (!isRecordId(id)) throw notFound(inSentence(entity.label));
  return readOne(ctx, actor, entity, sql<SqlBool>`id = ${id}`);
}

/**
 * One record by the value of a unique text field (an article's slug), as `getRecord` reads it:
 * NOT_FOUND when none in the actor's read scope has it, or when the actor may not read the field
 * on it (a hidden field cannot be probed by its values).
 */
export async function getRecordBy(
  ctx: OpsContext,
  actor: Actor,
  entityName: string,
  fieldName: string,
  value: string,
): Promise<RecordView> {
  const entity = entityOf(ctx.model, entityName);
  const field = Object.hasOwn(entity.fieldsByName, fieldName) ? entity.fieldsByName[fieldName] : undefined;
  if (!field || field.type !== 'text' || !field.unique)
    throw new Error(`${entity.name}.${fieldName} is not a unique text field: records are found by such fields only.`);
  const sight = fieldSight(ctx.model, entity, actor);
  if (!sight.readable.has(fieldName)) throw notFound(inSentence(entity.label));
  const readableHere = sight.readableWhere(fieldName) ?? sql<SqlBool>`true`;
  return readOne(ctx, actor, entity, sql<SqlBool>`${sql.ref(field.column)} = ${value} and ${readableHere}`);
}

async function readOne(ctx: OpsContext, actor: Actor, entity: EntityModel, which: RawBuilder<SqlBool>): Promise<RecordView> {
  const scope = authorize(ctx.model, entity, actor, 'read');
  const sight = fieldSight(ctx.model, entity, actor);
  const row = await ctx.db
    .selectFrom(entity.table)
    .select(recordColumns(entity))
    .select(grantedColumns(ctx.model, entity, actor))
    .select(canColumns(ctx.model, entity, actor))
    .select(sight.columns)
    .where(which)
    .where(scope)
    .executeTakeFirst();
  if (!row) throw notFound(inSentence(entity.label));
  const full = rowToRecord(entity, row);
  // Guards and owners' conditions through a path (`patient.account`) read the record it points at.
  const withPaths = await withPathValues(ctx.model, ctx.db, entity, transitionConditions(entity.workflow?.transitions ?? []), full);
  const transitions = transitionOffers(ctx.model, entity, withPaths, actor, row, new Date());
  const can = { update: Boolean(row.nf_can_update) && !isFinal(entity, full), delete: Boolean(row.nf_can_delete) };
  const titled = await withReferenceTitles(ctx.model, ctx.db, actor, entity, [sight.redact(full, row)]);
  const [record] = titled.records;
  if (!record) throw new Error('withReferenceTitles gives back each record it is given');
  return { record, references: titled.references, transitions, can };
}

/** Select expressions telling whether the row is in the actor's update and delete scopes (SQL). */
export function canColumns(model: AppModel, entity: EntityModel, actor: Actor) {
  return (['update', 'delete'] as const).map((action) => {
    const scope = rowScope(model, entity, actor, action);
    return sql<boolean>`(${scope ? scope.sql : sql<SqlBool>`false`})`.as(`nf_can_${action}`);
  });
}
