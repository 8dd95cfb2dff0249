import type { EntityModel } from '../../spec/model';
import { objectName, quoteIdent, quoteLiteral } from './sql';
import type { IndexDef } from './types';

/*
 * The scheduler asks, for each automatic transition, for the records in its `from` states whose
 * time has come, oldest first. Most records of a long-lived table have left those states, so an
 * index on the time alone would walk past them: this partial index holds only the records that
 * may fall due, by the time counted from, so a tick costs a range read however large the table.
 */
export function autoTransitionIndexes(entity: EntityModel): IndexDef[] {
  const workflow = entity.workflow;
  if (!workflow) return [];
  const indexes: IndexDef[] = [];
  const seen = new Set<string>();
  for (const transition of workflow.transitions) {
    if (!transition.auto) continue;
    const from = [...transition.from].sort();
    const where = `${quoteIdent(workflow.column)} in (${from.map(quoteLiteral).join(', ')})`;
    const key = `${transition.auto.column} ${where}`;
    if (seen.has(key)) continue;
    seen.add(key);
    indexes.push({
      name: objectName(entity.table, [transition.auto.column, 'auto', ...from], 'idx'),
      columns: [transition.auto.column, 'id'],
      method: 'btree',
      where,
    });
  }
  return indexes;
}
