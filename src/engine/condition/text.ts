import type { EntityModel } from '../spec/model';
import { withArticle } from '../spec/naming';
import { foldCondition } from './fold';
import type { CompiledCondition, CompiledOperand, LiteralOperand, TimeShift } from './types';

type ColumnKind = 'time' | 'other';

function columnKind(entity: EntityModel, name: string): ColumnKind {
  if (name === 'createdAt' || name === 'updatedAt') return 'time';
  const type = entity.fieldsByName[name]?.type;
  return type === 'date' || type === 'datetime' ? 'time' : 'other';
}

const COMPARISONS: Readonly<Record<'lt' | 'lte' | 'gt' | 'gte', Readonly<Record<ColumnKind, string>>>> = {
  lt: { time: 'is before', other: 'is less than' },
  lte: { time: 'is on or before', other: 'is at most' },
  gt: { time: 'is after', other: 'is more than' },
  gte: { time: 'is on or after', other: 'is at least' },
};

/** A condition as a sentence: `priority is urgent and assignee is present`. */
export function compiledConditionText(condition: CompiledCondition, entity: EntityModel): string {
  // A group inside another reads in parentheses.
  const nested = (texts: readonly string[], items: readonly CompiledCondition[]) =>
    texts.map((text, i) => (items[i]?.kind === 'all' || items[i]?.kind === 'any' ? `(${text})` : text));
  return foldCondition<string>(condition, {
    all: (texts, node) => nested(texts, node.items).join(' and '),
    any: (texts, node) => nested(texts, node.items).join(' or '),
    not: (text) => `not (${text})`,
    // "there is an appointment (by its patient) where practitioner's account is you"
    exists: (node) => {
      const by = node.via === null ? '' : ` (by its ${node.via})`;
      // The inner condition reads the related record's fields; the text names them as written.
      const where = node.where === null ? '' : ` where ${compiledConditionText(node.where, entity)}`;
      return `there is ${withArticle(node.entity)}${by}${where}`;
    },
    // A set (set-leaf.ts): "organizers include you", "organizers are empty".
    present: (leaf) => `${fieldText(leaf.subject.field)} ${isSet(entity, leaf.subject.field) ? 'have members' : 'is present'}`,
    absent: (leaf) => `${fieldText(leaf.subject.field)} ${isSet(entity, leaf.subject.field) ? 'are empty' : 'is absent'}`,
    in: (leaf) => `${fieldText(leaf.subject.field)} is one of ${leaf.values.map(listItemText).join(', ')}`,
    notIn: (leaf) => `${fieldText(leaf.subject.field)} is none of ${leaf.values.map(listItemText).join(', ')}`,
    compare: (leaf) => {
      const field = fieldText(leaf.subject.field);
      const empty = leaf.operand.kind === 'literal' && leaf.operand.value === null && leaf.operand.constant === undefined;
      if (isSet(entity, leaf.subject.field) && (leaf.op === 'eq' || leaf.op === 'ne'))
        return `${field} ${leaf.op === 'eq' ? 'include' : 'do not include'} ${operandText(leaf.operand)}`;
      switch (leaf.op) {
        case 'eq':
          return empty ? `${field} is empty` : `${field} is ${operandText(leaf.operand)}`;
        case 'ne':
          return empty ? `${field} is not empty` : `${field} is not ${operandText(leaf.operand)}`;
        default:
          return `${field} ${COMPARISONS[leaf.op][columnKind(entity, leaf.subject.field)]} ${operandText(leaf.operand)}`;
      }
    },
  });
}

/** Whether the name is a set of the entity (kept in a join table). */
function isSet(entity: EntityModel, name: string): boolean {
  return entity.fieldsByName[name]?.joinTable !== undefined;
}

/** A field, or a path read as words: `requester.organization` is "requester's organization". */
function fieldText(field: string): string {
  const dot = field.indexOf('.');
  return dot < 0 ? field : `${field.slice(0, dot)}'s ${field.slice(dot + 1)}`;
}

/** A value of an `in` list, as written (a constant by its name). */
function listItemText(value: LiteralOperand): string {
  return value.constant ?? String(value.value);
}

/**
 * " plus 24 hours", " minus cancelWindowHours hours", " plus 3 working days": a constant by its
 * name. The text reads a condition's shape, not the model's calendar, so working days are named
 * and the calendar is said once (describe/calendar.ts).
 */
function shiftText(shift: TimeShift | undefined): string {
  if (!shift) return '';
  const amount = shift.constant ?? String(shift.amount);
  const one = shift.constant === undefined && shift.amount === 1;
  if (shift.unit === 'workingDays') return ` ${shift.sign} ${amount} ${one ? 'working day' : 'working days'}`;
  return ` ${shift.sign} ${amount} ${one ? shift.unit.slice(0, -1) : shift.unit}`;
}

/** An operand in words; a constant by its name. */
function operandText(operand: CompiledOperand): string {
  switch (operand.kind) {
    case 'literal':
      return operand.constant ?? (operand.value === null ? 'empty' : String(operand.value));
    case 'field':
      return `${operand.field}${shiftText(operand.shift)}`;
    case 'now':
      return `now${shiftText(operand.shift)}`;
    // The user, or one of their fields: "assignee is you", "team is your team".
    case 'actor':
      return operand.name === 'id' ? 'you' : `your ${operand.name}`;
    case 'param':
      return `the address's {${operand.name}}`;
    case 'daysAgo':
      if (operand.constant === undefined && operand.days < 0) return `${-operand.days} days from now`;
      return `${operand.constant ?? operand.days} days ago`;
  }
}
