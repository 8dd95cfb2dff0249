import { sql } from 'kysely';
import { rowScope } from '../access/authorize';
import { defaultValue, type ParsedValues } from '../rules/record-input';
import { entityOf, type OpsContext } from './context';
import type { RecordInput } from './types';
import type { Actor } from '../ground/actor';
import { newRow } from './write';
import { withComputedOnCreate } from './computed';
import { ownRecordDefaults } from './own-record-defaults';

/**
 * Whether a create of the entity with these values, the others as a create form starts them
 * (their defaults), would fall within the actor's create scope: what a door may offer, such as
 * the reply box under a ticket (`{ ticket: 42 }`), which a customer gets on their own tickets
 * and not on a colleague's. Decided by the database with the create's own predicate, on the row
 * as it would be inserted (author and initial state included); nothing is written. A create still
 * checks everything (values, references, rules, limits) when it is sent.
 */
export async function mayCreate(ctx: OpsContext, actor: Actor, entityName: string, values: RecordInput): Promise<boolean> {
  const entity = entityOf(ctx.model, entityName);
  const scope = rowScope(ctx.model, entity, actor, 'create');
  if (!scope) return false;
  if (scope.all) return true;
  const own = await ownRecordDefaults(ctx, entity, actor, values);
  const starting: Record<string, unknown> = {};
  for (const field of entity.fields) {
    starting[field.name] = Object.hasOwn(values, field.name) ? values[field.name] : (defaultValue(field, actor, own) ?? null);
  }
  const row = JSON.stringify(newRow(entity, actor, withComputedOnCreate(entity, starting as ParsedValues)));
  // The row as a row of the entity's own type, under its name, so that the scope's columns resolve.
  const { rows } = await sql<{ one: number }>`
    select 1 as one from json_populate_record(null::${sql.table(entity.table)}, ${row}::json) as ${sql.table(entity.table)}
    where ${scope.sql}`.execute(ctx.db);
  return rows.length > 0;
}
