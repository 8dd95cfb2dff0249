import type { DocBlock } from '../document';
import type { AppModel, EntityModel, ExclusiveModel } from '../model';
import type { Condition } from '../types';
import { inSentence, withArticle } from '../naming';
import { code, conditionText } from './text';

/**
 * An `exclusive` rule in words: "A technician's visits never overlap (Starts at to Ends at), except
 * cancelled ones". The same sentence names the rule in /spec, describe, OpenAPI and the schema
 * sync's error about rows that already overlap.
 */
export function exclusiveText(entity: EntityModel, rule: ExclusiveModel): string {
  const records = inSentence(entity.pluralLabel);
  const keys = rule.per.map((name) => inSentence(labelOf(entity, name)));
  const [only] = keys;
  const whose =
    only !== undefined && keys.length === 1
      ? `${capitalise(withArticle(only))}'s ${records}`
      : `${capitalise(records)}${keys.length > 1 ? ` with the same ${keys.join(' and ')}` : ''}`;
  const range = `(${labelOf(entity, rule.start)} to ${labelOf(entity, rule.end)})`;
  return `${whose} never overlap ${range}${rule.where ? `, ${amongText(entity, rule.where)}` : ''}`;
}

/** Point 5's table of the rules: one row per rule, with what a refused write reads and its code. */
export function exclusiveBlocks(model: AppModel): DocBlock[] {
  const rows = model.entities.flatMap((entity) =>
    entity.exclusive.map((rule) => [code(entity.name), exclusiveText(entity, rule), rule.message, code(rule.code)]),
  );
  if (rows.length === 0) return [];
  return [
    { kind: 'heading', text: 'Ranges that never overlap' },
    { kind: 'table', columns: ['Entity', 'Rule', 'Message', 'Refused with'], rows },
  ];
}

/** "except cancelled ones" for states left out; "among those where ..." for any other condition. */
function amongText(entity: EntityModel, where: Condition): string {
  const workflow = entity.workflow;
  if (workflow && 'field' in where && where.field === workflow.field && (where.op === 'notIn' || where.op === 'ne')) {
    const values = Array.isArray(where.value) ? (where.value as readonly unknown[]) : [where.value];
    const labels = values.map((v) => inSentence(workflow.states.find((s) => s.name === v)?.label ?? String(v)));
    return `except ${labels.join(' or ')} ones`;
  }
  return `among those where ${conditionText(where, entity)}`;
}

function labelOf(entity: EntityModel, name: string): string {
  if (entity.workflow?.field === name) return 'State';
  return entity.fieldsByName[name]?.label ?? name;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
