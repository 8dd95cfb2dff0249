import { createHash } from 'node:crypto';
import type { EntityModel } from '../../spec/model';
import { conditionShape } from '../../condition/compile';
import { duePredicateSql } from '../../condition/literal-sql';
import { objectName } from './sql';
import type { IndexDef } from './types';

/*
 * Work still running against a due time, oldest due first ("overdue", "needs my action") is what
 * a due field exists for. Most records of a long-lived table are done, so an index on the due time
 * alone walks past every done record before the first open one. These partial indexes hold only
 * the records whose `doneWhen` does not hold: by due time, and per person (each user field).
 * Postgres uses them for queries whose condition implies theirs (`state not in (resolved, closed)`,
 * or `state in (open, pending)`).
 */
export function dueQueueIndexes(entity: EntityModel): IndexDef[] {
  const indexes: IndexDef[] = [];
  for (const field of entity.fields) {
    const doneWhen = field.due?.doneWhen;
    const done = doneWhen ? duePredicateSql(entity, conditionShape(doneWhen)) : null;
    if (!done) continue;
    const where = `not (${done})`;
    const tag = createHash('sha256').update(where).digest('hex').slice(0, 8);
    const keys = [[field.column, 'id'], ...entity.fields.filter((f) => f.type === 'user').map((u) => [u.column, field.column, 'id'])];
    for (const columns of keys) {
      indexes.push({ name: objectName(entity.table, [...columns.slice(0, -1), 'open', tag], 'idx'), columns, method: 'btree', where });
    }
  }
  return indexes;
}
