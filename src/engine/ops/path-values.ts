import { conditionPaths, splitPath } from '../rules/condition-paths';
import type { RecordLike } from '../condition/evaluate';
import type { AppModel, EntityModel } from '../spec/model';
import type { Condition } from '../spec/types';
import { USER_TABLE } from '../store/schema/desired';
import type { DynamicDatabase } from '../store/types';
import { columnFor, rowToRecord } from './records';
import { declared } from './declared';

/**
 * The record with the values of the paths its conditions compare (`patient.account`, read from
 * the patient the record points at), under the path as key, so that guards, rules, owners' `when`
 * and limits evaluate them in memory as they do plain fields. One query per reference followed,
 * whatever the number of paths through it; none when the conditions have no path. A reference
 * that is empty (or points at nothing) leaves its paths out: a condition on them then fails.
 */
export async function withPathValues<R extends RecordLike>(
  model: AppModel,
  db: DynamicDatabase,
  entity: EntityModel,
  conditions: readonly (Condition | undefined)[],
  record: R,
): Promise<R> {
  const byHead = new Map<string, string[]>();
  for (const path of conditionPaths(conditions)) {
    const { head, tail } = splitPath(path)!;
    byHead.set(head, [...(byHead.get(head) ?? []), tail]);
  }
  if (byHead.size === 0) return record;
  const values: Record<string, unknown> = {};
  for (const [head, tails] of byHead) {
    const id = record[head];
    if (typeof id !== 'number') continue;
    const targetName = entity.fieldsByName[head]?.referenceTo;
    if (targetName) {
      const target = declared(model.entitiesByName, targetName, 'entity');
      const columns = tails.map((tail) => columnFor(target, tail));
      const row = await db
        .selectFrom(target.table)
        .select(['id', ...columns])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) continue;
      const read = rowToRecord(target, row as Record<string, unknown>) as unknown as Record<string, unknown>;
      for (const tail of tails) values[`${head}.${tail}`] = read[tail] ?? null;
    } else {
      const fields = tails.map((tail) => declared(model.users.fieldsByName, tail, 'user field'));
      const row = await db
        .selectFrom(USER_TABLE)
        .select(['id', ...fields.map((f) => f.column)])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) continue;
      for (const field of fields) values[`${head}.${field.name}`] = (row as Record<string, unknown>)[field.column] ?? null;
    }
  }
  return { ...record, ...values };
}
