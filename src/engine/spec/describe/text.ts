import { policyOf } from '../../access/policy';
import type { EntityModel } from '../model';
import type { Condition, ConstantRef, Operand, Scope, TransitionActor } from '../types';

/**
 * Spec values in words, for the nine-point document. Texts are plain; the one inline mark is a
 * `code` span in backticks (routes, paths, codes), which both the Markdown and the HTML render.
 */

export function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

export const NONE = '—';

export function isConstantRef(value: unknown): value is ConstantRef {
  return typeof value === 'object' && value !== null && '$constant' in value;
}

/** A number or a constant, shown by its name. */
export function amountText(value: number | ConstantRef): string {
  return isConstantRef(value) ? value.$constant : String(value);
}

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
export function conditionText(condition: Condition, entity: EntityModel): string {
  if ('all' in condition) return condition.all.map((c) => nested(c, entity)).join(' and ');
  if ('any' in condition) return condition.any.map((c) => nested(c, entity)).join(' or ');
  if ('not' in condition) return `not (${conditionText(condition.not, entity)})`;
  const { op, value } = condition;
  const field = fieldText(condition.field);
  switch (op) {
    case 'present':
      return `${field} is present`;
    case 'absent':
      return `${field} is absent`;
    case 'in':
    case 'notIn':
      return `${field} is ${op === 'in' ? 'one of' : 'none of'} ${listText(value)}`;
    case 'eq':
      return value === null ? `${field} is empty` : `${field} is ${operandText(value)}`;
    case 'ne':
      return value === null ? `${field} is not empty` : `${field} is not ${operandText(value)}`;
    default:
      return `${field} ${COMPARISONS[op][columnKind(entity, condition.field)]} ${operandText(value)}`;
  }
}

/** A field, or a path read as words: `requester.organization` is "requester's organization". */
function fieldText(field: string): string {
  const dot = field.indexOf('.');
  return dot < 0 ? field : `${field.slice(0, dot)}'s ${field.slice(dot + 1)}`;
}

function nested(condition: Condition, entity: EntityModel): string {
  const text = conditionText(condition, entity);
  return 'all' in condition || 'any' in condition ? `(${text})` : text;
}

function listText(value: Operand | readonly (string | number | boolean)[] | undefined): string {
  return Array.isArray(value) ? value.map((v) => String(v)).join(', ') : operandText(value as Operand | undefined);
}

export function operandText(value: Operand | readonly (string | number | boolean)[] | undefined): string {
  if (value === undefined) return '';
  if (value === null) return 'empty';
  if (Array.isArray(value)) return value.map((v) => String(v)).join(', ');
  if (typeof value !== 'object') return String(value);
  if (isConstantRef(value)) return value.$constant;
  if ('field' in value) return value.field;
  if ('now' in value) return 'now';
  // The user, or one of their fields: "assignee is you", "team is your team".
  if ('actor' in value) return value.actor === true || value.actor === 'id' ? 'you' : `your ${value.actor}`;
  if ('param' in value) return `the address's {${value.param}}`;
  if ('daysAgo' in value) {
    const days = value.daysAgo;
    if (typeof days === 'number' && days < 0) return `${-days} days from now`;
    return `${amountText(days)} days ago`;
  }
  return '';
}

/** A permission scope: `all`, `own (requester)`, `where internal is false`, `via ticket (readable)`. */
export function scopeText(scope: Scope | undefined, entity: EntityModel): string {
  if (scope === undefined) return NONE;
  if (scope === true) return 'all';
  const parts: string[] = [];
  if (scope.own !== undefined) parts.push(`own (${scope.own})`);
  if (scope.via !== undefined) parts.push(`via ${scope.via} (readable)`);
  if (scope.where !== undefined) parts.push(`where ${conditionText(scope.where, entity)}`);
  return parts.join(', ');
}

/**
 * Who may take the transition `name`: `agent, admin, the requester when …`; a role's grant for it
 * (point 6) narrows the records it takes it on, `editor (where team is …)`, and an owner's are
 * within their roles' grants for it when some role declares one.
 */
export function actorText(actor: TransitionActor, entity: EntityModel, name: string): string {
  const { declared, roles } = policyOf(entity);
  // The built-in admin's full grant on an entity without declared permissions narrows nothing.
  const grantFor = (role: string) => {
    const grant = declared ? roles.get(role) : undefined;
    return grant && Object.hasOwn(grant.transitions, name) ? grant.transitions[name] : undefined;
  };
  if (typeof actor === 'string') {
    const scope = grantFor(actor);
    return scope === undefined || scope === true ? actor : `${actor} (${scopeText(scope, entity)})`;
  }
  const owner = actor.when ? `the ${actor.owner} when ${conditionText(actor.when, entity)}` : `the ${actor.owner}`;
  return [...roles.keys()].some((role) => grantFor(role) !== undefined) ? `${owner} (within their roles' grants for it)` : owner;
}

/** A constant's value: `20`, `urgent 4, high 8, normal 24, low 72`. */
export function constantValueText(value: number | string | boolean | Readonly<Record<string, number>>): string {
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([key, v]) => `${key} ${v}`)
      .join(', ');
  return String(value);
}
