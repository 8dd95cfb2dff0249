import type { Actor } from '../ground/actor';
import { authorId } from '../access/visitor';
import type { Condition } from '../spec/types';
import { compiledOf, type ConditionSource } from './book';
import { compareValues, isPresent, orderHolds, timeOf } from './compare';
import { foldCondition } from './fold';
import { workingDaysFrom } from '../time/working-days';
import { setLeafHolds, setMembers } from './set-leaf';
import type { CompiledCondition, CompiledExists, CompiledLeaf, CompiledOperand, Subject, TimeShift } from './types';

export type RecordLike = Readonly<Record<string, unknown>>;

/** Who is looking and where: for `{ actor }` and `{ param }` operands. */
export interface EvalContext {
  /** The current user's id; none for a visitor (who then matches nothing). */
  readonly actorId?: number | null;
  /** The current user's values of the spec's user fields, for `{ actor: 'team' }`. */
  readonly actorFields?: Readonly<Record<string, unknown>>;
  readonly params?: Readonly<Record<string, string | number | boolean>>;
}

/** The context of conditions evaluated for an actor: their id (none for a visitor) and user fields. */
export function actorContext(actor: Actor, params?: EvalContext['params']): EvalContext {
  return { actorId: authorId(actor), actorFields: actor.fields ?? {}, ...(params ? { params } : {}) };
}

/** All a condition needs of the model: its compiled conditions, or its constants (so the browser can evaluate one too). */
export type ConstantsOf = ConditionSource;

/**
 * A spec condition on one record in memory (guards, entity rules, transition owners' `when`):
 * the model's compiled form of it, evaluated.
 */
export function evaluateCondition(
  source: ConditionSource,
  condition: Condition,
  record: RecordLike,
  now: Date,
  context: EvalContext = {},
): boolean {
  return evaluateCompiled(compiledOf(source, condition), record, now, context);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A time moved by a shift; an empty value stays empty, and a value without a shift is as it is. */
function shiftedTime(value: unknown, shift: TimeShift | undefined): unknown {
  if (!shift) return value;
  if (shift.unit === 'workingDays') return workingDaysFrom(value, shift.days, shift.calendar);
  const time = timeOf(value);
  return time === null ? null : new Date(time.getTime() + shift.seconds * 1000);
}

/** An operand's value for this record at this time (the same meaning as the SQL writer gives it). */
export function operandValue(operand: CompiledOperand, record: RecordLike, now: Date, context: EvalContext): unknown {
  switch (operand.kind) {
    case 'literal':
      return operand.value;
    case 'field':
      return shiftedTime(record[operand.field], operand.shift);
    case 'now':
      return shiftedTime(now, operand.shift);
    case 'daysAgo':
      return new Date(now.getTime() - operand.days * DAY_MS);
    case 'actor':
      return operand.name === 'id' ? context.actorId : context.actorFields?.[operand.name];
    case 'param':
      return context.params?.[operand.name] ?? null;
  }
}

/** The value a leaf compares: empty when it is blank, or when a path's reference is not set. */
function subjectValue(subject: Subject, record: RecordLike): unknown {
  return subject.tail !== null && !isPresent(record[subject.head]) ? undefined : record[subject.field];
}

/**
 * A condition on one record in memory (guards, entity rules, transition owners' `when`, forms):
 * what `SELECT ... WHERE` with the bound SQL (bound-sql.ts) answers for the stored record. A path
 * (`patient.account`) holds only when its reference is set; ops load its value beforehand.
 */
export function evaluateCompiled(condition: CompiledCondition, record: RecordLike, now: Date, context: EvalContext = {}): boolean {
  // A leaf on a set (an array of ids) reads "includes" (set-leaf.ts); any other as below.
  const onSet =
    (plain: (leaf: CompiledLeaf) => boolean) =>
    (leaf: CompiledLeaf): boolean => {
      const members = leaf.subject.tail === null ? setMembers(record[leaf.subject.field]) : null;
      if (members === null) return plain(leaf);
      const expected = leaf.kind === 'compare' ? operandValue(leaf.operand, record, now, context) : undefined;
      return setLeafHolds(leaf, members, expected);
    };
  return foldCondition<boolean>(condition, {
    all: (items) => items.every(Boolean),
    any: (items) => items.some(Boolean),
    not: (item) => !item,
    // Other records are not in memory: the value loaded beforehand under existsKey, else it does not hold.
    exists: (node) => record[existsKey(node)] === true,
    present: onSet((leaf) => pathSet(leaf.subject, record) && isPresent(record[leaf.subject.field])),
    absent: onSet((leaf) => pathSet(leaf.subject, record) && !isPresent(record[leaf.subject.field])),
    in: (leaf) => {
      const actual = presentValue(leaf.subject, record);
      return actual !== null && leaf.values.some((v) => compareValues(actual, v.value) === 0);
    },
    notIn: (leaf) => {
      const actual = presentValue(leaf.subject, record);
      return actual !== null && !leaf.values.some((v) => compareValues(actual, v.value) === 0);
    },
    compare: onSet((leaf) => {
      if (leaf.kind !== 'compare' || !pathSet(leaf.subject, record)) return false;
      const actual = presentValue(leaf.subject, record);
      const expected = operandValue(leaf.operand, record, now, context);
      if (expected === null || expected === undefined) {
        // A user without a value (or a visitor) matches nothing, rather than the records without one.
        if (leaf.operand.kind === 'actor') return leaf.op === 'ne' && actual !== null;
        // `ne` is `is distinct from`, as the SQL writers read it.
        if (leaf.op === 'ne') return actual !== null;
        // `eq` with an empty other field (or moved time, or parameter) is unknown in SQL: it does not hold.
        if (leaf.op === 'eq') return leaf.operand.kind === 'literal' && actual === null;
      }
      const order = compareValues(actual, expected);
      return order === null ? leaf.op === 'ne' : orderHolds(leaf.op, order);
    }),
  });
}

/** Where a record loaded for in-memory evaluation holds the answer of an `exists` node (as a path's value is under the path). */
export function existsKey(node: CompiledExists): string {
  return `exists:${JSON.stringify(node)}`;
}

function pathSet(subject: Subject, record: RecordLike): boolean {
  return subject.tail === null || isPresent(record[subject.head]);
}

/** The subject's value, or null when it has none (blank, or a path whose reference is not set). */
function presentValue(subject: Subject, record: RecordLike): unknown {
  const value = subjectValue(subject, record);
  return isPresent(value) ? value : null;
}
