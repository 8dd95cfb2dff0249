import { NinefoldError, type FieldError } from '../errors/ninefold-error';
import { logLine } from '../log';
import type { Actor } from '../ground/actor';
import type { EntityModel } from '../spec/model';

/** What was refused: a record action, a transition, or a field used by a list (filter, sort, search). */
export type RefusedAction = 'list' | 'read' | 'create' | 'update' | 'delete' | `transition:${string}` | 'choices';

/**
 * A FORBIDDEN refusal, logged as one structured line (who, what, which entity; never a value).
 * Out-of-scope records are not refused this way: they are NOT_FOUND, as if absent.
 */
export function forbidden(actor: Actor, entity: EntityModel, action: RefusedAction, detail: string): NinefoldError {
  logLine('warn', 'access refused', { code: 'FORBIDDEN', actor: actor.userId, entity: entity.name, action });
  return new NinefoldError('FORBIDDEN', detail);
}

/**
 * A FORBIDDEN_FIELD refusal naming the fields (a field the actor may not write, or may not read
 * and so may not filter, sort or search by), logged like `forbidden`.
 */
export function forbiddenField(actor: Actor, entity: EntityModel, action: RefusedAction, errors: readonly FieldError[]): NinefoldError {
  const fields = errors.map((e) => e.field);
  logLine('warn', 'access refused', {
    code: 'FORBIDDEN_FIELD',
    actor: actor.userId,
    entity: entity.name,
    action,
    field: fields[0],
    ...(fields.length > 1 ? { fields } : {}),
  });
  return new NinefoldError('FORBIDDEN_FIELD', errors.map((e) => e.message).join(' '), { fieldErrors: errors });
}
