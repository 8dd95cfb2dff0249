import { declaredScopes } from '../access/policy';
import { columnFor } from '../ops/records';
import type { EntityModel } from '../spec/model';
import type { Condition, Operand } from '../spec/types';

function conditionFields(condition: Condition, into: Set<string>): void {
  if ('all' in condition) for (const c of condition.all) conditionFields(c, into);
  else if ('any' in condition) for (const c of condition.any) conditionFields(c, into);
  else if ('not' in condition) conditionFields(condition.not, into);
  else {
    // A path (`requester.organization`) is judged from the reference it follows, which the row keeps.
    into.add(condition.field.split('.')[0]);
    const value = condition.value as Operand | undefined;
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'field' in value) into.add(value.field);
  }
}

/**
 * The columns that any role's read scope of the entity tests (its own-field, its `where`
 * fields, the reference it follows `via`), plus `id`: what the last image of a deleted row must
 * keep so that each viewer's read scope can be evaluated on it after the row is gone.
 */
export function readScopeColumns(entity: EntityModel): string[] {
  const fields = new Set<string>();
  for (const scope of declaredScopes(entity, 'read')) {
    if (scope === true) continue;
    if ('own' in scope && scope.own !== undefined) fields.add(scope.own);
    if ('via' in scope && scope.via !== undefined) fields.add(scope.via);
    if ('where' in scope && scope.where !== undefined) conditionFields(scope.where, fields);
  }
  const columns = new Set(['id']);
  for (const field of fields) columns.add(columnFor(entity, field));
  return [...columns];
}
