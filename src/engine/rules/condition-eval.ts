import type { AppModel } from '../spec/model';
import type { Actor } from '../ground/actor';
import type { Condition, ConstantRef, Operand } from '../spec/types';
import { authorId } from '../access/visitor';
import { actorOperand, splitPath } from './condition-paths';

type Value = string | number | boolean | Date | null | undefined;
export type RecordLike = Readonly<Record<string, unknown>>;
/** All a condition needs of the model: its constants (so the browser can evaluate one too). */
export type ConstantsOf = Pick<AppModel, 'constants'>;

const DAY_MS = 24 * 60 * 60 * 1000;

function constantValue(model: ConstantsOf, ref: ConstantRef): unknown {
  return model.constants[ref.$constant]?.value;
}

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

/** An operand's value for this record at this time (the same meaning as conditionToSql gives it). */
function operandValue(model: ConstantsOf, operand: Operand | undefined, record: RecordLike, now: Date, context: EvalContext): Value {
  if (operand === undefined || operand === null || typeof operand !== 'object') return operand as Value;
  if ('actor' in operand) {
    const name = actorOperand(operand);
    return (name === 'id' ? context.actorId : context.actorFields?.[name!]) as Value;
  }
  if ('param' in operand) return context.params?.[operand.param] ?? null;
  if ('$constant' in operand) return constantValue(model, operand) as Value;
  if ('field' in operand) return record[operand.field] as Value;
  if ('now' in operand) return now;
  const days = typeof operand.daysAgo === 'number' ? operand.daysAgo : Number(constantValue(model, operand.daysAgo));
  return new Date(now.getTime() - days * DAY_MS);
}

/** Dates compare by time; an ISO string compared with a Date is read as a time. */
function comparable(a: Value, b: Value): [number | string | boolean, number | string | boolean] | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (a instanceof Date || b instanceof Date) {
    const ta = a instanceof Date ? a.getTime() : Date.parse(String(a));
    const tb = b instanceof Date ? b.getTime() : Date.parse(String(b));
    return Number.isNaN(ta) || Number.isNaN(tb) ? null : [ta, tb];
  }
  return [a, b];
}

function isPresent(v: unknown): boolean {
  return v !== null && v !== undefined && !(typeof v === 'string' && v.trim() === '');
}

/**
 * Evaluates a spec Condition against one record in memory: for guards, entity rules and the
 * `when` of transition owners. Comparisons with an empty value are false, as in SQL.
 */
export function evaluateCondition(
  model: ConstantsOf,
  condition: Condition,
  record: RecordLike,
  now: Date,
  context: EvalContext = {},
): boolean {
  if ('all' in condition) return condition.all.every((c) => evaluateCondition(model, c, record, now, context));
  if ('any' in condition) return condition.any.some((c) => evaluateCondition(model, c, record, now, context));
  if ('not' in condition) return !evaluateCondition(model, condition.not, record, now, context);

  // A path (`patient.account`) holds only when its reference is set; ops load its value beforehand.
  const path = splitPath(condition.field);
  if (path && !isPresent(record[path.head])) return false;
  const actual = record[condition.field] as Value;
  switch (condition.op) {
    case 'present':
      return isPresent(actual);
    case 'absent':
      return !isPresent(actual);
    case 'in':
    case 'notIn': {
      const list = (Array.isArray(condition.value) ? condition.value : [condition.value]) as readonly Value[];
      const found = isPresent(actual) && list.some((v) => v === actual);
      return condition.op === 'in' ? found : isPresent(actual) && !found;
    }
    default: {
      const expected = operandValue(model, condition.value as Operand, record, now, context);
      // A user without a value (or a visitor) matches nothing, rather than the records without one.
      if (condition.op === 'eq' && (expected === null || expected === undefined) && actorOperand(condition.value) !== null) return false;
      if (condition.op === 'eq' && (expected === null || expected === undefined)) return !isPresent(actual);
      if (condition.op === 'ne' && (expected === null || expected === undefined)) return isPresent(actual);
      const pair = comparable(actual, expected);
      if (!pair) return condition.op === 'ne';
      const [a, b] = pair;
      switch (condition.op) {
        case 'eq':
          return a === b;
        case 'ne':
          return a !== b;
        case 'lt':
          return a < b;
        case 'lte':
          return a <= b;
        case 'gt':
          return a > b;
        case 'gte':
          return a >= b;
      }
    }
  }
}
