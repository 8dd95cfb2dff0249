import { DURATION_UNITS } from '../auto';
import { isDecimalType } from '../field-numbers';
import { checkDuration } from './auto';
import { rawConditionNode } from '../../condition/raw-node';
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
import { checkReverseReference } from './reverse-reference';

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
  /**
   * False where a path (`patient.account`) cannot be followed: where the condition is evaluated
   * without the database at hand (due times' `doneWhen`, read from a list's row). Allowed elsewhere.
   */
  readonly paths?: boolean;
  /**
   * True where `{ exists }` may be asked: where the condition becomes SQL (scopes, widgets, route
   * lists). Elsewhere a condition is evaluated on one record in memory (rules, guards, limits) or
   * kept by an index, neither of which can see other records.
   */
  readonly exists?: boolean;
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
  const node = rawConditionNode(condition);
  switch (node.kind) {
    case 'all':
    case 'any': {
      issues.unknownKeys(condition, [node.kind], path, `an "${node.kind}" condition`);
      const items = node.items;
      if (!Array.isArray(items) || items.length === 0) {
        issues.add(at(path, node.kind), `must be a non-empty list of conditions`);
        return;
      }
      items.forEach((item: unknown, index) => walk(item, at(at(path, node.kind), index), scope));
      return;
    }
    case 'not':
      issues.unknownKeys(condition, ['not'], path, 'a "not" condition');
      walk(node.item, at(path, 'not'), scope);
      return;
    case 'exists':
      checkExists(condition, node.entity, node.via, node.where, path, scope);
      return;
    case 'leaf':
      checkLeaf(condition, path, scope);
  }
}

/** `{ exists, via, where }`: a related entity that references this one, and a condition on its records. */
function checkExists(condition: Rec, entityName: unknown, via: unknown, where: unknown, path: string, scope: ConditionScope): void {
  const { issues, symbols, entity } = scope;
  issues.unknownKeys(condition, ['exists', 'via', 'where'], path, 'an "exists" condition');
  if (scope.context.exists !== true) {
    issues.add(
      at(path, 'exists'),
      '"exists" asks the database about other records, which only permission scopes, home widgets and route lists do: rules, guards, limits, due times, derived values and uniqueWhen read the record alone',
    );
    return;
  }
  const related = isString(entityName) ? symbols.entities.get(entityName) : undefined;
  if (!related) {
    issues.add(at(path, 'exists'), `unknown entity ${describeValue(entityName)} (entities: ${[...symbols.entities.keys()].join(', ')})`);
    return;
  }
  checkReverseReference(entity.name, related, via, path, issues);
  if (where !== undefined) walk(where, at(path, 'where'), { ...scope, entity: related, columns: queryableColumns(related) });
}

/** The column a leaf compares, when it is a known one. */
interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
  /** Where the column is: the entity (its enum values, its states), or null for a user field. */
  readonly owner: EntityInfo | null;
  /** Its field's spec, when it is a field (for an enum's values). */
  readonly field?: Rec;
  /** For a reference: the entity it refers to; for an entity's `id`: that entity. */
  readonly to?: string;
  /** True for a path (`patient.account`). */
  readonly path?: boolean;
}

/** The column a name of the entity denotes (a field, a system column, the state), or undefined. */
function columnOf(entity: EntityInfo, name: string): Column | undefined {
  const kind = queryableColumns(entity).get(name);
  if (!kind) return undefined;
  const field = entity.fields.get(name);
  const to = name === 'id' ? entity.name : kind === 'reference' && isString(field?.to) ? field.to : undefined;
  return { name, kind, owner: entity, ...(field ? { field } : {}), ...(to ? { to } : {}) };
}

/**
 * The column a path denotes, or undefined (reported). `head.tail`: the head is a reference field
 * (the tail is then a field, system column or state of the entity it refers to) or a user field
 * (the tail is one of the spec's user fields); one step only.
 */
function pathColumn(name: string, path: string, scope: ConditionScope): Column | undefined {
  const { issues, entity, symbols } = scope;
  const [head, tail, ...rest] = name.split('.');
  if (scope.context.paths === false) {
    issues.add(path, `"${name}" follows a reference, which cannot be done here: compare the fields of ${entity.name} itself`);
    return undefined;
  }
  if (rest.length > 0 || !head || !tail) {
    issues.add(path, `"${name}" is not a path: a path follows one reference or user field one step, e.g. "patient.account"`);
    return undefined;
  }
  const first = columnOf(entity, head);
  if (!first) {
    issues.add(path, `unknown field "${head}" of ${entity.name} (the start of the path "${name}")`);
    return undefined;
  }
  if (first.kind === 'reference') {
    const target = first.to ? symbols.entities.get(first.to) : undefined;
    if (!target) return undefined; // an unknown target is reported on the field
    const second = columnOf(target, tail);
    if (!second) issues.add(path, `unknown field "${tail}" of ${target.name} (in the path "${name}")`);
    return second && { ...second, name, path: true };
  }
  if (first.kind === 'user') {
    const field = symbols.users.get(tail);
    if (!field || !isFieldType(field.type)) {
      issues.add(
        path,
        `"${tail}" is not a user field (in the path "${name}"; user fields: ${[...symbols.users.keys()].join(', ') || 'none, see users.fields'})`,
      );
      return undefined;
    }
    return {
      name,
      kind: field.type,
      owner: null,
      field,
      path: true,
      ...(field.type === 'reference' && isString(field.to) ? { to: field.to } : {}),
    };
  }
  issues.add(path, `"${head}" is ${withArticle(first.kind)} field: a path starts at a reference or user field`);
  return undefined;
}

function checkLeaf(leaf: Rec, path: string, scope: ConditionScope): void {
  const { issues, columns, entity } = scope;
  issues.unknownKeys(leaf, ['field', 'op', 'value'], path, 'a condition');
  let column: Column | undefined;
  if (!isString(leaf.field)) {
    issues.add(at(path, 'field'), `a condition needs a field name, got ${describeValue(leaf.field)}`);
  } else if (leaf.field.includes('.')) {
    column = pathColumn(leaf.field, at(path, 'field'), scope);
  } else {
    if (columns.has(leaf.field)) column = columnOf(entity, leaf.field);
    else issues.add(at(path, 'field'), `unknown field "${leaf.field}" of ${entity.name}`);
  }
  // A references field is a set in a join table: no single value to compare (lists filter by it).
  if (column?.kind === 'references') {
    issues.add(at(path, 'field'), `"${leaf.field}" holds many records: a condition cannot test it`);
    return;
  }
  if (column?.kind === 'users') {
    checkUsersLeaf(leaf, path, column, scope);
    return;
  }
  const op = OPS.find((o) => o === leaf.op);
  if (!op) {
    issues.add(at(path, 'op'), `unknown operator ${describeValue(leaf.op)} (expected one of ${OPS.join(', ')})`);
    return;
  }
  checkValue(op, leaf.value, at(path, 'value'), column, scope);
}

/**
 * A leaf on a set of users reads "includes" (condition/set-leaf.ts): `eq` / `ne` with the user
 * (`{ actor: 'id' }`, or a user field of theirs holding a user), `present` / `absent` for "has
 * members" / "is empty". Nothing else has one meaning for a set, so nothing else is taken.
 */
function checkUsersLeaf(leaf: Rec, path: string, column: Column, scope: ConditionScope): void {
  const { issues } = scope;
  const hint = `"${column.name}" holds many users: a condition asks whether it includes the user ("eq" with { actor: 'id' }), does not ("ne"), or has any ("present", "absent")`;
  // Where the condition is read from the record's own row (an index, a due time's doneWhen), a set is not there.
  if (scope.context.paths === false) {
    issues.add(at(path, 'field'), `"${column.name}" holds many users, kept apart from the record's row: it cannot be tested here`);
    return;
  }
  if (leaf.op === 'present' || leaf.op === 'absent') {
    if (leaf.value !== undefined) issues.add(at(path, 'value'), `a "${leaf.op}" condition takes no value`);
    return;
  }
  if (leaf.op !== 'eq' && leaf.op !== 'ne') {
    issues.add(at(path, 'op'), `${hint}, not ${describeValue(leaf.op)}`);
    return;
  }
  const value = leaf.value;
  if (!isRecord(value) || !('actor' in value)) {
    issues.add(at(path, 'value'), `${hint}; got ${describeValue(value)}`);
    return;
  }
  issues.unknownKeys(value, ['actor'], at(path, 'value'), 'an { actor } operand');
  checkActorOperand(value.actor, at(path, 'value'), column, scope);
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
    issues.unknownKeys(value, ['field', ...SHIFT_KEYS], path, 'a { field } operand');
    if (column?.path) {
      issues.add(path, `a path ("${column.name}") is compared with values, constants or the user, not with another field`);
      return;
    }
    if (!isString(value.field) || !columns.has(value.field)) {
      issues.add(at(path, 'field'), `unknown field ${describeValue(value.field)} of ${entity.name}`);
    } else if (columns.get(value.field) === 'references' || columns.get(value.field) === 'users') {
      issues.add(at(path, 'field'), `"${value.field}" holds many values: a field is compared with one value, not with a set`);
    } else if (hasShift(value)) {
      const kind = columns.get(value.field)!;
      if (!TIME_KINDS.includes(kind)) {
        issues.add(path, `only a date or datetime field can be moved by plus or minus; "${value.field}" is ${withArticle(kind)} field`);
      }
      checkShift(value, path, scope);
      checkTimeColumn(column, path, `{ field: "${value.field}" } moved by a duration`, issues);
    }
    return;
  }
  if ('now' in value) {
    issues.unknownKeys(value, ['now', ...SHIFT_KEYS], path, 'a { now } operand');
    if (value.now !== true) issues.add(at(path, 'now'), 'must be true');
    checkShift(value, path, scope);
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
    checkActorOperand(value.actor, path, column, scope);
    return;
  }
  if ('param' in value) {
    issues.unknownKeys(value, ['param'], path, 'a { param } operand');
    const params = scope.context.params;
    if (!params) issues.add(path, '{ param } can only be used in a custom route');
    else if (!isString(value.param) || !Object.hasOwn(params, value.param)) {
      issues.add(
        at(path, 'param'),
        `unknown route parameter ${describeValue(value.param)} (parameters: ${Object.keys(params).join(', ') || 'none'})`,
      );
    }
    return;
  }
  issues.add(
    path,
    'not a valid value: expected a literal, { $constant }, { field }, { now: true } (either may be moved by plus or minus a duration), { daysAgo }, { actor: true } or { param }',
  );
}

/**
 * `{ actor: true }` / `{ actor: 'id' }` (the user's id, compared with a user field) or
 * `{ actor: <user field> }` (its value for the user, compared with a column of the same kind: a
 * reference to the same entity, or that entity's `id`).
 */
function checkActorOperand(actor: unknown, path: string, column: Column | undefined, scope: ConditionScope): void {
  const { issues, symbols } = scope;
  const known = [...symbols.users.keys()];
  if (actor !== true && actor !== 'id' && !(isString(actor) && symbols.users.has(actor))) {
    const fields = known.length > 0 ? `, or a user field (${known.join(', ')})` : ' (the spec declares no user fields: users.fields)';
    issues.add(at(path, 'actor'), `must be true, "id"${fields}; got ${describeValue(actor)}`);
    return;
  }
  const shown = actor === true ? '{ actor: true }' : `{ actor: "${actor}" }`;
  if (!scope.context.actor) {
    issues.add(path, `${shown} (the signed-in user) cannot be used here`);
    return;
  }
  if (!column) return;
  // A set of users is compared with one user: whether it includes them.
  const kind = column.kind === 'users' ? 'user' : column.kind;
  if (actor === true || actor === 'id') {
    if (kind !== 'user') issues.add(path, `${shown} can only be compared with a user field, not ${withArticle(column.kind)} field`);
    return;
  }
  const field = symbols.users.get(actor)!;
  const type = isFieldType(field.type) ? field.type : null;
  if (type === null) return; // reported on the user field
  if (type === 'reference') {
    const to = isString(field.to) ? field.to : null;
    if (to !== null && column.to !== to) {
      issues.add(
        path,
        `${shown} is ${withArticle(to)} (the user field "${actor}" refers to ${to}): compare it with a reference to ${to} or the id of ${withArticle(to)}, not "${column.name}"`,
      );
    }
    return;
  }
  if (literalTypeOf(type) !== literalTypeOf(kind) || (type === 'user') !== (kind === 'user')) {
    issues.add(
      path,
      `${shown} is ${withArticle(type)} value (the user field "${actor}"): it cannot be compared with the ${column.kind} field "${column.name}"`,
    );
  }
}

const SHIFT_KEYS = ['plus', 'minus'] as const;

function hasShift(value: Rec): boolean {
  return SHIFT_KEYS.some((key) => value[key] !== undefined);
}

/** `plus` or `minus` (not both), a duration in one unit of minutes, hours, days or working days. */
function checkShift(value: Rec, path: string, scope: ConditionScope): void {
  const { issues, symbols } = scope;
  const given = SHIFT_KEYS.filter((key) => value[key] !== undefined);
  if (given.length > 1) issues.add(path, 'give "plus" or "minus", not both');
  for (const key of given) {
    const duration = value[key];
    const place = at(path, key);
    if (!issues.record(duration, place, 'a duration ({ minutes | hours | days | workingDays })')) continue;
    issues.unknownKeys(duration, DURATION_UNITS, place, 'a duration');
    if (!DURATION_UNITS.some((unit) => duration[unit] !== undefined)) issues.add(place, 'needs one of minutes, hours, days or workingDays');
    checkDuration(duration, place, symbols, issues);
  }
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
  if (typeof value !== expected && !(isDecimalType(column.kind) && typeof value === 'string')) {
    issues.add(
      path,
      `${describeValue(value)} does not fit the ${column.kind} field "${column.name}" (expected ${withArticle(String(expected))})`,
    );
    return;
  }
  const allowed = allowedValues(column);
  if (allowed && !allowed.includes(String(value))) {
    const where = column.owner?.name ?? entity.name;
    const what = column.kind === 'state' ? `a state of ${where}` : `a value of ${column.path ? column.name : `${where}.${column.name}`}`;
    issues.add(path, `${describeValue(value)} is not ${what} (expected one of ${allowed.join(', ')})`);
  }
}

function allowedValues(column: Column): readonly string[] | null {
  if (column.kind === 'state') return column.owner?.workflow?.states ?? null;
  if (column.kind !== 'enum') return null;
  const values = column.field?.values;
  // An enum without values is reported on the field itself.
  return Array.isArray(values) && values.length > 0 && values.every(isString) ? values : null;
}

function literalTypeOf(kind: ColumnKind): 'string' | 'number' | 'boolean' {
  switch (kind) {
    case 'integer':
    case 'decimal':
    case 'money':
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
