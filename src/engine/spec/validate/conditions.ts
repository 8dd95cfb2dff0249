import { withArticle } from '../naming';
import { FIELD_TYPES, type FieldType } from '../types';
import {
  at,
  describeValue,
  isConstantRef,
  isFiniteNumber,
  isInteger,
  isRecord,
  isString,
  type EntityInfo,
  type Issues,
  type Rec,
  type Symbols,
} from './context';

/** What a column holds, for checking the values compared with it. */
export type ColumnKind = FieldType | 'state';

/** System columns a condition, a list or a sort may name (besides the fields and the state). */
export const QUERYABLE_SYSTEM_COLUMNS: Readonly<Record<string, ColumnKind>> = {
  id: 'integer',
  createdAt: 'datetime',
  updatedAt: 'datetime',
  createdBy: 'user',
  updatedBy: 'user',
};

/** Every name a condition on `entity` may use: its fields, the system columns, its state field. */
export function queryableColumns(entity: EntityInfo): Map<string, ColumnKind> {
  const columns = new Map<string, ColumnKind>(Object.entries(QUERYABLE_SYSTEM_COLUMNS));
  for (const [name, field] of entity.fields) {
    const type = field.type;
    if (isFieldType(type)) columns.set(name, type);
  }
  if (entity.workflow) columns.set(entity.workflow.field, 'state');
  return columns;
}

export function isFieldType(value: unknown): value is FieldType {
  return FIELD_TYPES.some((t) => t === value);
}

const OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'notIn', 'present', 'absent'] as const;
type Op = (typeof OPS)[number];
const ORDERED_OPS: readonly Op[] = ['lt', 'lte', 'gt', 'gte'];
const TIME_KINDS: readonly ColumnKind[] = ['date', 'datetime'];

interface ConditionScope {
  readonly entity: EntityInfo;
  readonly columns: ReadonlyMap<string, ColumnKind>;
  readonly symbols: Symbols;
  readonly issues: Issues;
  readonly context: ConditionContext;
}

/**
 * What a condition may refer to besides the record: the signed-in user (`{ actor: true }`, in
 * conditions evaluated for a viewer: scopes, widgets, routes) and the parameters of a route.
 */
export interface ConditionContext {
  readonly actor?: boolean;
  readonly params?: Readonly<Record<string, string>>;
}

/** Walks a condition tree (all / any / not / leaf) and reports every problem in it. */
export function checkCondition(
  condition: unknown,
  path: string,
  entity: EntityInfo,
  symbols: Symbols,
  issues: Issues,
  context: ConditionContext = {},
): void {
  walk(condition, path, { entity, columns: queryableColumns(entity), symbols, issues, context });
}

function walk(condition: unknown, path: string, scope: ConditionScope): void {
  const { issues } = scope;
  if (!isRecord(condition)) {
    issues.add(path, `a condition must be an object ({ all }, { any }, { not } or { field, op, value }), got ${describeValue(condition)}`);
    return;
  }
  if ('all' in condition || 'any' in condition) {
    const key = 'all' in condition ? 'all' : 'any';
    issues.unknownKeys(condition, [key], path, `an "${key}" condition`);
    const items = condition[key];
    if (!Array.isArray(items) || items.length === 0) {
      issues.add(at(path, key), `must be a non-empty list of conditions`);
      return;
    }
    items.forEach((item: unknown, index) => walk(item, at(at(path, key), index), scope));
    return;
  }
  if ('not' in condition) {
    issues.unknownKeys(condition, ['not'], path, 'a "not" condition');
    walk(condition.not, at(path, 'not'), scope);
    return;
  }
  checkLeaf(condition, path, scope);
}

/** The column a leaf compares, when it is a known one. */
interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
}

function checkLeaf(leaf: Rec, path: string, scope: ConditionScope): void {
  const { issues, columns, entity } = scope;
  issues.unknownKeys(leaf, ['field', 'op', 'value'], path, 'a condition');
  let column: Column | undefined;
  if (!isString(leaf.field)) {
    issues.add(at(path, 'field'), `a condition needs a field name, got ${describeValue(leaf.field)}`);
  } else {
    const kind = columns.get(leaf.field);
    if (kind) column = { name: leaf.field, kind };
    else issues.add(at(path, 'field'), `unknown field "${leaf.field}" of ${entity.name}`);
  }
  const op = OPS.find((o) => o === leaf.op);
  if (!op) {
    issues.add(at(path, 'op'), `unknown operator ${describeValue(leaf.op)} (expected one of ${OPS.join(', ')})`);
    return;
  }
  checkValue(op, leaf.value, at(path, 'value'), column, scope);
}

function checkValue(op: Op, value: unknown, path: string, column: Column | undefined, scope: ConditionScope): void {
  const { issues } = scope;
  if (op === 'present' || op === 'absent') {
    if (value !== undefined) issues.add(path, `a "${op}" condition takes no value`);
    return;
  }
  if (value === undefined) {
    issues.add(path, `a "${op}" condition needs a value`);
    return;
  }
  if (op === 'in' || op === 'notIn') {
    if (!Array.isArray(value) || value.length === 0) {
      issues.add(path, `an "${op}" condition needs a non-empty list of values`);
      return;
    }
    value.forEach((item: unknown, index) => checkLiteral(item, at(path, index), column, scope));
    return;
  }
  if (Array.isArray(value)) {
    issues.add(path, `a list of values needs the "in" or "notIn" operator, not "${op}"`);
    return;
  }
  if (value === null) {
    if (op !== 'eq' && op !== 'ne') issues.add(path, 'null can only be compared with "eq" or "ne"; use "present" or "absent"');
    return;
  }
  if (isRecord(value)) {
    checkOperandObject(value, path, column, scope);
    return;
  }
  if (ORDERED_OPS.includes(op) && column?.kind === 'boolean') issues.add(path, `"${op}" does not apply to a boolean field`);
  checkLiteral(value, path, column, scope);
}

function checkOperandObject(value: Rec, path: string, column: Column | undefined, scope: ConditionScope): void {
  const { issues, columns, entity, symbols } = scope;
  if (isConstantRef(value)) return; // checked by the walk over every { $constant }
  if ('field' in value) {
    issues.unknownKeys(value, ['field'], path, 'a { field } operand');
    if (!isString(value.field) || !columns.has(value.field)) {
      issues.add(at(path, 'field'), `unknown field ${describeValue(value.field)} of ${entity.name}`);
    }
    return;
  }
  if ('now' in value) {
    issues.unknownKeys(value, ['now'], path, 'a { now } operand');
    if (value.now !== true) issues.add(at(path, 'now'), 'must be true');
    checkTimeColumn(column, path, '{ now: true }', issues);
    return;
  }
  if ('daysAgo' in value) {
    issues.unknownKeys(value, ['daysAgo'], path, 'a { daysAgo } operand');
    checkNumberOrConstant(value.daysAgo, at(path, 'daysAgo'), symbols, issues, { integer: false, nonNegative: false });
    checkTimeColumn(column, path, '{ daysAgo }', issues);
    return;
  }
  if ('actor' in value) {
    issues.unknownKeys(value, ['actor'], path, 'an { actor } operand');
    if (value.actor !== true) issues.add(at(path, 'actor'), 'must be true');
    if (!scope.context.actor) issues.add(path, '{ actor: true } (the signed-in user) cannot be used here');
    else if (column && column.kind !== 'user') issues.add(path, `{ actor: true } can only be compared with a user field, not ${withArticle(column.kind)} field`);
    return;
  }
  if ('param' in value) {
    issues.unknownKeys(value, ['param'], path, 'a { param } operand');
    const params = scope.context.params;
    if (!params) issues.add(path, '{ param } can only be used in a custom route');
    else if (!isString(value.param) || !Object.hasOwn(params, value.param)) {
      issues.add(at(path, 'param'), `unknown route parameter ${describeValue(value.param)} (parameters: ${Object.keys(params).join(', ') || 'none'})`);
    }
    return;
  }
  issues.add(path, 'not a valid value: expected a literal, { $constant }, { field }, { now: true }, { daysAgo }, { actor: true } or { param }');
}

function checkTimeColumn(column: Column | undefined, path: string, what: string, issues: Issues): void {
  if (column && !TIME_KINDS.includes(column.kind)) {
    issues.add(path, `${what} can only be compared with a date or datetime field, not ${withArticle(column.kind)} field`);
  }
}

/** A literal compared with a column: of the column's type, and for enums and states a declared value. */
function checkLiteral(value: unknown, path: string, column: Column | undefined, scope: ConditionScope): void {
  const { issues, entity } = scope;
  if (isConstantRef(value)) return;
  if (!['string', 'number', 'boolean'].includes(typeof value)) {
    issues.add(path, `must be a string, a number or a boolean, got ${describeValue(value)}`);
    return;
  }
  if (!column) return;
  const expected = literalTypeOf(column.kind);
  if (typeof value !== expected && !(column.kind === 'decimal' && typeof value === 'string')) {
    issues.add(path, `${describeValue(value)} does not fit the ${column.kind} field "${column.name}" (expected ${withArticle(String(expected))})`);
    return;
  }
  const allowed = allowedValues(column, entity);
  if (allowed && !allowed.includes(String(value))) {
    const what = column.kind === 'state' ? `a state of ${entity.name}` : `a value of ${entity.name}.${column.name}`;
    issues.add(path, `${describeValue(value)} is not ${what} (expected one of ${allowed.join(', ')})`);
  }
}

function allowedValues(column: Column, entity: EntityInfo): readonly string[] | null {
  if (column.kind === 'state') return entity.workflow?.states ?? null;
  if (column.kind !== 'enum') return null;
  const values = entity.fields.get(column.name)?.values;
  // An enum without values is reported on the field itself.
  return Array.isArray(values) && values.length > 0 && values.every(isString) ? values : null;
}

function literalTypeOf(kind: ColumnKind): 'string' | 'number' | 'boolean' {
  switch (kind) {
    case 'integer':
    case 'decimal':
    case 'reference':
    case 'user':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'string';
  }
}

/**
 * A number or a `{ $constant }` naming a numeric constant (limits, minimums, day counts).
 * Undeclared constants are reported by the walk over the whole spec, not here.
 */
export function checkNumberOrConstant(
  value: unknown,
  path: string,
  symbols: Symbols,
  issues: Issues,
  options: { readonly integer: boolean; readonly nonNegative: boolean },
): void {
  let number: unknown = value;
  let via = '';
  if (isConstantRef(value)) {
    if (!isString(value.$constant) || !symbols.constants.has(value.$constant)) return;
    number = symbols.constants.get(value.$constant);
    via = ` (constant "${value.$constant}")`;
  }
  const kind = options.integer ? 'an integer' : 'a number';
  if (!isFiniteNumber(number) || (options.integer && !isInteger(number))) {
    issues.add(path, `must be ${kind}${options.nonNegative ? ' ≥ 0' : ''} or { $constant }, got ${describeValue(number)}${via}`);
  } else if (options.nonNegative && number < 0) {
    issues.add(path, `must not be negative, got ${number}${via}`);
  }
}
