import { rawConditionNode } from '../../condition/raw-node';
import { checkCondition } from './conditions';
import { checkRefusalCode } from './refusal-code';
import { at, describeValue, isConstantRef, isRecord, isString, quoteList, type EntityInfo, type Issues, type Symbols } from './context';

const UNIQUE_WHEN_KEYS = ['fields', 'where', 'message', 'error'];
/** Field types without a column of their own, or whose values are too long for an index entry. */
const NOT_INDEXABLE = new Set(['references', 'users', 'markdown']);

/**
 * `uniqueWhen`: one rule or a list of them. The database keeps each as a partial unique index,
 * so its fields must be columns an index can hold, and its condition must mean the same thing at
 * every moment and for every user: fields (or the state) compared with literal values and
 * constants only, never the time, the user, a route's parameter, another field or a path.
 */
export function checkUniqueWhen(value: unknown, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    if (value.length === 0) issues.add(path, 'must be a rule ({ fields, where, message }) or a non-empty list of them');
    value.forEach((rule: unknown, index) => checkRule(rule, info, at(path, index), symbols, issues));
    return;
  }
  checkRule(value, info, path, symbols, issues);
}

function checkRule(rule: unknown, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  if (!issues.record(rule, path, 'a uniqueWhen rule')) return;
  issues.unknownKeys(rule, UNIQUE_WHEN_KEYS, path, 'a uniqueWhen rule');
  checkFields(rule.fields, info, at(path, 'fields'), issues);
  if (rule.where === undefined)
    issues.add(at(path, 'where'), 'is required: the condition that selects the records among which the fields are unique');
  else {
    checkCondition(rule.where, at(path, 'where'), info, symbols, issues);
    checkLiteralCondition(rule.where, at(path, 'where'), info, issues, UNIQUE_WHEN_PURPOSE);
  }
  issues.optionalString(rule, 'message', path);
  checkRefusalCode(rule.error, at(path, 'error'), symbols, issues);
}

function checkFields(fields: unknown, info: EntityInfo, path: string, issues: Issues): void {
  if (fields === undefined) {
    issues.add(path, 'is required: the fields whose values must be unique');
    return;
  }
  const names = issues.stringList(fields, path);
  if (Array.isArray(fields) && fields.length === 0) issues.add(path, 'needs at least one field');
  names.forEach((name, index) => {
    const field = info.fields.get(name);
    if (!field) issues.add(at(path, index), `unknown field "${name}" of ${info.name} (fields: ${quoteList(info.fields.keys())})`);
    else if (NOT_INDEXABLE.has(String(field.type))) {
      issues.add(
        at(path, index),
        `a ${String(field.type)} field cannot be unique: a unique index holds columns of short values (not references or markdown)`,
      );
    }
  });
  issues.duplicates(names, path, 'field');
}

/** What a condition kept by the database is called in messages, and why it must be literal. */
export interface LiteralPurpose {
  /** "a uniqueWhen condition" */
  readonly what: string;
  /** "the database keeps the condition as the index's predicate" */
  readonly why: string;
}

const UNIQUE_WHEN_PURPOSE: LiteralPurpose = {
  what: 'a uniqueWhen condition',
  why: "the database keeps the condition as the index's predicate",
};

/**
 * The leaves of a condition already found well-formed: only fields or the state, with literals
 * (what a database object that keeps the condition, an index or a trigger, can hold).
 */
export function checkLiteralCondition(condition: unknown, path: string, info: EntityInfo, issues: Issues, purpose: LiteralPurpose): void {
  if (!isRecord(condition)) return;
  const node = rawConditionNode(condition);
  switch (node.kind) {
    case 'all':
    case 'any':
      if (Array.isArray(node.items))
        node.items.forEach((item: unknown, index) => checkLiteralCondition(item, at(at(path, node.kind), index), info, issues, purpose));
      return;
    case 'not':
      checkLiteralCondition(node.item, at(path, 'not'), info, issues, purpose);
      return;
    case 'exists':
      // Reported by checkCondition: an `exists` is allowed only where the condition becomes a query.
      return;
    case 'leaf':
      break;
  }
  const name = condition.field;
  if (!isString(name)) return;
  const field = info.fields.get(name);
  const isState = info.workflow?.field === name;
  if (!isState && (!field || field.type === 'references' || field.type === 'users')) {
    issues.add(
      at(path, 'field'),
      `${purpose.what} may only compare the fields${info.workflow ? ' and the state' : ''} of ${info.name}, got "${name}" (${purpose.why})`,
    );
  }
  const values = Array.isArray(condition.value) ? (condition.value as readonly unknown[]) : [condition.value];
  values.forEach((value, index) => {
    if (value === undefined || value === null || typeof value !== 'object' || isConstantRef(value)) return;
    // The condition check refuses the user and a route's parameter everywhere but scopes and routes.
    if ('actor' in value || 'param' in value) return;
    issues.add(
      Array.isArray(condition.value) ? at(at(path, 'value'), index) : at(path, 'value'),
      `${purpose.what} compares with literal values and constants only, got ${operandKind(value)}: ${purpose.why}, which cannot change with the time, the user or other records`,
    );
  });
}

function operandKind(value: object): string {
  for (const key of ['now', 'daysAgo', 'field']) if (key in value) return `{ ${key} }`;
  return describeValue(value);
}
