import { BUILT_IN_ERRORS } from '../../errors/catalogue';
import { isRecord, isString, type EntityInfo, type Rec, type Symbols, type WorkflowInfo } from './context';

export const DEFAULT_STATE_FIELD = 'state';

/**
 * The names a spec declares, read leniently (wrong shapes are skipped here and reported by the
 * section that owns them), so that each check can look up entities, fields, roles and codes.
 */
export function collectSymbols(spec: Rec): Symbols {
  const workflows = isRecord(spec.workflows) ? spec.workflows : {};
  const entities = new Map<string, EntityInfo>();
  for (const [name, entity] of entries(spec.entities)) {
    if (!isRecord(entity)) continue;
    const fields = new Map<string, Rec>();
    for (const [fieldName, field] of entries(entity.fields)) if (isRecord(field)) fields.set(fieldName, field);
    entities.set(name, { name, fields, workflow: workflowInfo(workflows[name]) });
  }
  const users = new Map<string, Rec>();
  for (const [name, field] of entries(isRecord(spec.users) ? spec.users.fields : undefined)) if (isRecord(field)) users.set(name, field);
  const constants = new Map<string, unknown>();
  for (const [name, constant] of entries(spec.constants)) if (isRecord(constant)) constants.set(name, constant.value);
  return {
    entities,
    roles: new Set(Object.keys(isRecord(spec.roles) ? spec.roles : {})),
    constants,
    errorCodes: new Set([...Object.keys(BUILT_IN_ERRORS), ...Object.keys(isRecord(spec.errors) ? spec.errors : {})]),
    users,
    currency: isRecord(spec.purpose) ? spec.purpose.currency : undefined,
  };
}

function workflowInfo(workflow: unknown): WorkflowInfo | null {
  if (!isRecord(workflow)) return null;
  return {
    field: isString(workflow.field) ? workflow.field : DEFAULT_STATE_FIELD,
    fieldDeclared: workflow.field !== undefined,
    states: Object.keys(isRecord(workflow.states) ? workflow.states : {}),
    transitions: Object.keys(isRecord(workflow.transitions) ? workflow.transitions : {}),
  };
}

/** The entries of a record, or none when the value is not one. */
export function entries(value: unknown): [string, unknown][] {
  return isRecord(value) ? Object.entries(value) : [];
}

/** The user fields of an entity, for `own`, `owner` and `per`. */
export function userFields(entity: EntityInfo): string[] {
  return [...entity.fields].filter(([, field]) => field.type === 'user').map(([name]) => name);
}

/** The fields that may own a record (a scope's `own`, a transition's owner): user fields and sets of users. */
export function ownerFields(entity: EntityInfo): string[] {
  return [...entity.fields].filter(([, field]) => field.type === 'user' || field.type === 'users').map(([name]) => name);
}

/** True when `name` is a user field or a users field (a set that owns by including the user) of `entity`. */
export function isOwnerField(entity: EntityInfo, name: unknown): boolean {
  return isString(name) && ownerFields(entity).includes(name);
}

/** True when `name` is a user field of `entity`. */
export function isUserField(entity: EntityInfo, name: unknown): boolean {
  return isString(name) && entity.fields.get(name)?.type === 'user';
}
