import type { DocBlock } from '../document';
import type { AppModel, EntityModel, UniqueWhenModel } from '../model';
import { code, conditionText } from './text';
import { inSentence } from '../naming';

/**
 * A `uniqueWhen` rule in words: "section is unique among articles where featured is true and
 * state is published". The same sentence names the rule in /spec, describe, OpenAPI and the
 * schema sync's error about rows that break it.
 */
export function uniqueWhenText(entity: EntityModel, rule: UniqueWhenModel): string {
  const fields = rule.fields.join(' and ');
  const together = rule.fields.length > 1 ? ' together' : '';
  return `${fields} ${rule.fields.length > 1 ? 'are' : 'is'} unique${together} among ${inSentence(entity.pluralLabel)} where ${conditionText(rule.where, entity)}`;
}

/** Point 5's table of the rules: one row per rule, with what a refused write reads. */
export function uniqueWhenBlocks(model: AppModel): DocBlock[] {
  const rows = model.entities.flatMap((entity) =>
    entity.uniqueWhen.map((rule) => [code(entity.name), uniqueWhenText(entity, rule), rule.message, code(rule.code)]),
  );
  if (rows.length === 0) return [];
  return [
    { kind: 'heading', text: 'Uniqueness among some records' },
    { kind: 'table', columns: ['Entity', 'Rule', 'Message', 'Error'], rows },
  ];
}
