import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { columnFor } from '../ops/records';
import { JOIN_RECORD, JOIN_TARGET } from '../spec/join-fields';
import type { EntityModel } from '../spec/model';

/*
 * "Their own" records by an owner field (a scope's `own`, a transition's `{ owner }`): a user
 * field that is the user, or a users field (a set: an event's organizers) that includes them.
 * One rule, written for the database here and for a record in memory below.
 */

/** The records whose owner field `name` names the user. */
export function ownSql(entity: EntityModel, name: string, userId: number): RawBuilder<SqlBool> {
  const joinTable = entity.fieldsByName[name]?.joinTable;
  if (joinTable === undefined) return sql<SqlBool>`${sql.ref(columnFor(entity, name))} = ${userId}`;
  return sql<SqlBool>`exists (select 1 from ${sql.table(joinTable)} j where j.${sql.ref(JOIN_RECORD)} = ${sql.ref(`${entity.table}.id`)} and j.${sql.ref(JOIN_TARGET)} = ${userId})`;
}

/** The users an owner field's value names: its user, or the members of its set. */
export function ownersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
}

/** Whether the owner field's value (as a record in memory holds it) names the user. */
export function namesOwner(value: unknown, userId: number): boolean {
  return ownersIn(value).includes(userId);
}
