import type { Condition, Operand, TimeShiftSpec } from '../spec/types';
import { DURATION_UNITS, UNIT_SECONDS } from '../spec/auto';
import { DEFAULT_CALENDAR, type WorkingCalendar } from '../time/working-days';
import { rawConditionNode } from './raw-node';
import type { CompiledCondition, CompiledLeaf, CompiledOperand, ComparisonOp, Literal, LiteralOperand, Subject, TimeShift } from './types';

/** The constants a condition may name, by name (the model's, or what a form is sent of them). */
export type ConstantValues = Readonly<Record<string, { readonly value?: unknown }>>;

type Leaf = Extract<Condition, { readonly field: string }>;

/**
 * A checked spec condition in its compiled form (types.ts). The model build compiles every
 * condition of the spec once (book.ts); a form compiles the rules it is sent.
 */
export function compileCondition(
  condition: Condition,
  constants: ConstantValues,
  calendar: WorkingCalendar = DEFAULT_CALENDAR,
): CompiledCondition {
  const node = rawConditionNode(condition);
  switch (node.kind) {
    case 'all':
    case 'any':
      return { kind: node.kind, items: (node.items as readonly Condition[]).map((c) => compileCondition(c, constants, calendar)) };
    case 'not':
      return { kind: 'not', item: compileCondition(node.item as Condition, constants, calendar) };
    case 'exists':
      return {
        kind: 'exists',
        entity: node.entity as string,
        via: (node.via as string | undefined) ?? null,
        where: node.where === undefined ? null : compileCondition(node.where as Condition, constants, calendar),
      };
    case 'leaf':
      return compileLeaf(condition as Leaf, { constants, calendar });
  }
}

/** What a leaf's operands are resolved with: the constants' values, and the calendar working days count on. */
interface Resolve {
  readonly constants: ConstantValues;
  readonly calendar: WorkingCalendar;
}

/**
 * A condition compiled for what it says rather than what it compares with: its fields, paths,
 * operators and operand kinds, for readers that read no constant's value (fields, paths, text).
 */
export function conditionShape(condition: Condition): CompiledCondition {
  return compileCondition(condition, {});
}

function compileLeaf(leaf: Leaf, resolve: Resolve): CompiledLeaf {
  const { constants } = resolve;
  const subject = subjectOf(leaf.field);
  switch (leaf.op) {
    case 'present':
    case 'absent':
      return { kind: leaf.op, subject };
    case 'in':
    case 'notIn': {
      // A single value counts as a list of one.
      const list = (Array.isArray(leaf.value) ? leaf.value : [leaf.value]) as readonly Operand[];
      return { kind: leaf.op, subject, values: list.map((v) => literalOperand(v, constants)) };
    }
    default:
      return { kind: 'compare', subject, op: leaf.op satisfies ComparisonOp, operand: compileOperand(leaf.value as Operand, resolve) };
  }
}

/** The two steps of a path (`head.tail`), or the field alone. */
export function subjectOf(field: string): Subject {
  const dot = field.indexOf('.');
  return dot < 0 ? { field, head: field, tail: null } : { field, head: field.slice(0, dot), tail: field.slice(dot + 1) };
}

function compileOperand(operand: Operand | undefined, resolve: Resolve): CompiledOperand {
  const { constants } = resolve;
  if (operand === undefined || operand === null || typeof operand !== 'object') return { kind: 'literal', value: operand ?? null };
  if ('$constant' in operand) return literalOperand(operand, constants);
  if ('field' in operand) return withShift({ kind: 'field', field: operand.field }, operand, resolve);
  if ('now' in operand) return withShift({ kind: 'now' }, operand, resolve);
  if ('actor' in operand) return { kind: 'actor', name: operand.actor === true ? 'id' : operand.actor };
  if ('param' in operand) return { kind: 'param', name: operand.param };
  const days = operand.daysAgo;
  if (typeof days === 'number') return { kind: 'daysAgo', days };
  return { kind: 'daysAgo', days: Number(constants[days.$constant]?.value), constant: days.$constant };
}

/** The operand moved by its `plus` or `minus`, when it has one (checked at load: one side, one unit). */
function withShift<T extends { readonly kind: 'field' | 'now' }>(compiled: T, operand: TimeShiftSpec, resolve: Resolve): T {
  const sign: TimeShift['sign'] | null = operand.plus ? 'plus' : operand.minus ? 'minus' : null;
  if (sign === null) return compiled;
  const duration = operand[sign]!;
  const unit = DURATION_UNITS.find((u) => duration[u] !== undefined);
  if (!unit) return compiled;
  const given = duration[unit]!;
  const constant = typeof given === 'number' ? undefined : given.$constant;
  const amount = constant === undefined ? (given as number) : Number(resolve.constants[constant]?.value);
  const direction = sign === 'minus' ? -1 : 1;
  const written = { sign, amount, ...(constant !== undefined ? { constant } : {}) };
  const shift: TimeShift =
    unit === 'workingDays'
      ? { ...written, unit, days: amount * direction, calendar: resolve.calendar }
      : { ...written, unit, seconds: amount * UNIT_SECONDS[unit] * direction };
  return { ...compiled, shift };
}

/** A literal or a constant's value (a constant that is no single value reads as none). */
function literalOperand(operand: Operand | undefined, constants: ConstantValues): LiteralOperand {
  if (operand === null || operand === undefined || typeof operand !== 'object') return { kind: 'literal', value: operand ?? null };
  if ('$constant' in operand) {
    const value = constants[operand.$constant]?.value;
    return { kind: 'literal', value: isLiteral(value) ? value : null, constant: operand.$constant };
  }
  throw new Error(`a list of values holds literals and constants only, got ${JSON.stringify(operand)}`);
}

function isLiteral(value: unknown): value is Literal {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
