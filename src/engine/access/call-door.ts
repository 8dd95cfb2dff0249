import { NinefoldError } from '../errors/ninefold-error';
import { logLine } from '../log';
import type { Actor } from '../ground/actor';
import type { EntityModel, FieldModel } from '../spec/model';
import { policyOf } from './policy';
import type { RecordAction } from './record-actions';

/*
 * `writtenBy: 'calls'` (an entity or a field): written only by the spec's own calls (point 7),
 * workflow effects and defaults. Which door a write comes through is told by the actor ops
 * receive: the call route binds ops to a copy of the caller that is registered here, and only
 * here. A session or an API token gives a plain actor; a look-alike object, a copy or a spread
 * of a call's actor is not registered, so no other door can claim to be a call (it fails closed).
 */

const throughCalls = new WeakSet<Actor>();

/** The actor as a spec's call acts for them: the same user and roles, through the call door. */
export function callActor(actor: Actor): Actor {
  const caller: Actor = Object.freeze({ userId: actor.userId, email: actor.email, name: actor.name, roles: actor.roles });
  throughCalls.add(caller);
  return caller;
}

/** Whether the actor acts through one of the spec's calls. */
export function isThroughCall(actor: Actor): boolean {
  return throughCalls.has(actor);
}

const WRITES: ReadonlySet<RecordAction> = new Set(['create', 'update', 'delete']);

/** Whether the actor may `action` records of the entity through this door at all (before any grant). */
export function writesThroughDoor(entity: EntityModel, actor: Actor, action: RecordAction): boolean {
  return !policyOf(entity).callsOnly || !WRITES.has(action) || isThroughCall(actor);
}

/** Whether the field may be given through this door (never the spec's read-only ones). */
export function fieldWritableThroughDoor(field: FieldModel, actor: Actor): boolean {
  return !field.readOnly && (field.writtenBy !== 'calls' || isThroughCall(actor));
}

/** What a form, an import or the record API reads about a field only calls write. */
export function callsOnlyFieldMessage(field: FieldModel): string {
  return `${field.label} is written only by the application's calls and workflow.`;
}

/**
 * METHOD_NOT_ALLOWED for a create, change or delete of a calls-only entity through another door
 * (a page, an import, a bulk edit): the same refusal as the record API's, whatever the roles.
 * `done` says what cannot be done, for the message ("imported"); default: the action's.
 */
export function checkWriteDoor(entity: EntityModel, actor: Actor, action: RecordAction, done: string = PAST[action] ?? 'changed'): void {
  if (writesThroughDoor(entity, actor, action)) return;
  logLine('warn', 'access refused', { code: 'METHOD_NOT_ALLOWED', actor: actor.userId, entity: entity.name, action });
  throw new NinefoldError(
    'METHOD_NOT_ALLOWED',
    `${entity.pluralLabel} are written only by the application's calls and workflow: they cannot be ${done} directly.`,
  );
}

const PAST: Partial<Record<RecordAction, string>> = { create: 'created', update: 'changed', delete: 'deleted' };
