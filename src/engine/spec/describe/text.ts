import { policyOf } from '../../access/policy';
import type { EntityModel } from '../model';
import type { Condition, ConstantRef, Scope, TransitionActor } from '../types';
import { conditionShape } from '../../condition/compile';
import { compiledConditionText } from '../../condition/text';

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

/** A condition as a sentence: `priority is urgent and assignee is present`. */
export function conditionText(condition: Condition, entity: EntityModel): string {
  return compiledConditionText(conditionShape(condition), entity);
}

/** A permission scope: `all`, `own (requester)`, `where internal is false`, `via ticket (readable)`. */
export function scopeText(scope: Scope | undefined, entity: EntityModel): string {
  if (scope === undefined) return NONE;
  if (scope === true) return 'all';
  const parts: string[] = [];
  // A set of users owns the records that include the user: "own (organizers include them)".
  if (scope.own !== undefined)
    parts.push(entity.fieldsByName[scope.own]?.type === 'users' ? `own (${scope.own} include them)` : `own (${scope.own})`);
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
  const who = entity.fieldsByName[actor.owner]?.type === 'users' ? `one of the ${actor.owner}` : `the ${actor.owner}`;
  const owner = actor.when ? `${who} when ${conditionText(actor.when, entity)}` : who;
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
