import { declaredScopes } from '../access/policy';
import { columnFor } from '../ops/records';
import type { EntityModel } from '../spec/model';
import { conditionShape } from '../condition/compile';
import { conditionFields } from '../condition/fields';

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
    // A path (`requester.organization`) is judged from the reference it follows, which the row keeps.
    if ('where' in scope && scope.where !== undefined)
      for (const name of conditionFields(conditionShape(scope.where), { paths: 'head', operands: true })) fields.add(name);
  }
  const columns = new Set(['id']);
  // A set (its join table's pairs, deleted with the row) travels with no image: a deleted record
  // seen through it alone is not announced; the page drops it when it reads again.
  for (const field of fields) if (entity.fieldsByName[field]?.joinTable === undefined) columns.add(columnFor(entity, field));
  return [...columns];
}
