import type { AppModel, EntityModel, UniqueWhenModel } from '../../spec/model';
import { uniqueWhenText } from '../../spec/describe/unique-when';
import { literalPredicateSql, predicateColumn } from '../../condition/literal-sql';
import type { IndexDef } from './types';

/**
 * One partial unique index per `uniqueWhen` of the entity: the database refuses a second record
 * with the same values among those the condition selects, so the rule holds under races too
 * (ops checks first to answer with the spec's message; the index refuses whoever loses a race).
 */
export function uniqueWhenIndexes(model: AppModel, entity: EntityModel): IndexDef[] {
  return entity.uniqueWhen.map((rule) => uniqueWhenIndex(model, entity, rule));
}

function uniqueWhenIndex(model: AppModel, entity: EntityModel, rule: UniqueWhenModel): IndexDef {
  return {
    name: rule.index,
    columns: rule.fields.map((name) => predicateColumn(entity, name)),
    method: 'btree',
    unique: true,
    where: literalPredicateSql(entity, model.conditions.of(rule.where)),
    rule: `${entity.label} (${entity.name}): ${uniqueWhenText(entity, rule)}`,
  };
}
