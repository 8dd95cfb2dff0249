import { at, isRecord, isString, type EntityInfo, type Issues, type Rec, type Symbols } from './context';
import { PUBLIC_ROLE } from './public';

/*
 * Grants that are well formed but could never work as written: the role could never create a
 * record of its own, never write a field it is told it may write, or would see links to records
 * with no name. Each is a load error at the place to change, saying why (issue "Checking the
 * spec"). Run after checkPermissions, on grants whose shape it found right.
 */

export function checkGrantUsability(spec: Rec, symbols: Symbols, issues: Issues): void {
  if (!isRecord(spec.permissions) || !isRecord(spec.entities)) return;
  for (const [entityName, byRole] of Object.entries(spec.permissions)) {
    const entity = symbols.entities.get(entityName);
    const raw = spec.entities[entityName];
    if (!entity || !isRecord(byRole) || !isRecord(raw)) continue;
    for (const [role, grant] of Object.entries(byRole)) {
      if (!isRecord(grant)) continue;
      const path = at(at('permissions', entityName), role);
      checkCreateOwn(grant, path, entity, raw, issues);
      checkWritableEntries(grant, path, entity, issues);
      checkTitleShown(grant, path, role, entity, raw, issues);
      checkTransitionGrants(grant, path, role, entityName, spec.workflows, issues);
    }
  }
}

const names = (value: unknown): readonly string[] => (Array.isArray(value) ? value.filter(isString) : []);

/** The spec makes the field read-only for everyone: `readOnly`, or a due time the engine keeps. */
function readOnlyReason(field: Rec): string | null {
  if (field.readOnly === true) return 'the field is readOnly';
  if (field.type === 'datetime' && field.due !== undefined) return 'the engine computes it (a due time)';
  return null;
}

/**
 * `create: { own: X }`: a new record must be the actor's own, so X must come out as the actor:
 * by its `default: 'actor'`, or because the role may set it (to itself). Otherwise every create
 * by the role is refused.
 */
function checkCreateOwn(grant: Rec, path: string, entity: EntityInfo, raw: Rec, issues: Issues): void {
  const scope = grant.create;
  if (!isRecord(scope) || !isString(scope.own)) return;
  const field = entity.fields.get(scope.own);
  if (!field || field.type !== 'user' || field.default === 'actor') return;
  // Calls set what only calls write; the role's field lists are about the other doors.
  if (field.writtenBy === 'calls' || raw.writtenBy === 'calls') return;
  const reason =
    readOnlyReason(field) ??
    (names(grant.hiddenFields).includes(scope.own) ? 'the grant hides it' : null) ??
    (names(grant.readOnlyFields).includes(scope.own) ? 'the grant makes it read-only' : null) ??
    (grant.writableFields !== undefined && !names(grant.writableFields).includes(scope.own)
      ? "it is not among the grant's writableFields"
      : null);
  if (reason === null) return;
  issues.add(
    at(at(path, 'create'), 'own'),
    `a new ${entity.name} must be the creator's own through "${scope.own}", but this role cannot set it (${reason}) and it does not default to the signed-in user, so every create would be refused: give ${entity.name}.${scope.own} default: 'actor', or let the role write it`,
  );
}

/** A `writableFields` entry the spec makes read-only for everyone can never be written. */
function checkWritableEntries(grant: Rec, path: string, entity: EntityInfo, issues: Issues): void {
  if (!Array.isArray(grant.writableFields)) return;
  grant.writableFields.forEach((name: unknown, index) => {
    const field = isString(name) ? entity.fields.get(name) : undefined;
    const reason = field ? readOnlyReason(field) : null;
    if (reason)
      issues.add(
        at(at(path, 'writableFields'), index),
        `"${String(name)}" is read-only (${reason}), so no role can write it: leave it out of writableFields`,
      );
  });
}

/**
 * The title field names a record wherever it is linked (lists, references, history); a role that
 * may list or read the records but not see their titles would get links without names.
 */
function checkTitleShown(grant: Rec, path: string, role: string, entity: EntityInfo, raw: Rec, issues: Issues): void {
  if (grant.list === undefined && grant.read === undefined) return;
  const title = isString(raw.titleField) ? raw.titleField : [...entity.fields].find(([, f]) => f.type === 'text')?.[0];
  if (title === undefined || !Array.isArray(grant.hiddenFields)) return;
  grant.hiddenFields.forEach((name: unknown, index) => {
    if (name !== title) return;
    issues.add(
      at(at(path, 'hiddenFields'), index),
      `"${title}" is the title field of ${entity.name}, which names its records in links; role "${role}" may ${grant.list !== undefined ? 'list' : 'read'} them, so it must see it: show it, or set another titleField`,
    );
  });
}

/**
 * A transition needs both: who, from its `allow` list, and on which records, from the grant
 * (`transitions` of the role). A grant to a role the list does not name once let that role take
 * the transition by itself (the two were a union); now it lets it take nothing, unless it narrows
 * an owner the list allows (`own` naming the same user field). Such a spec changed meaning, so
 * it is a load error that says how to write what it meant.
 */
function checkTransitionGrants(grant: Rec, path: string, role: string, entityName: string, workflows: unknown, issues: Issues): void {
  // Visitors are granted no transition at all (./public.ts says so).
  if (!isRecord(grant.transitions) || role === PUBLIC_ROLE) return;
  const declared = isRecord(workflows) && isRecord(workflows[entityName]) ? workflows[entityName].transitions : undefined;
  if (!isRecord(declared)) return;
  for (const [name, scope] of Object.entries(grant.transitions)) {
    const transition = declared[name];
    if (!isRecord(transition) || !Array.isArray(transition.allow)) continue;
    const allow = transition.allow;
    if (allow.includes(role)) continue;
    const owners = allow.flatMap((entry: unknown) => (isRecord(entry) && isString(entry.owner) ? [entry.owner] : []));
    if (isRecord(scope) && isString(scope.own) && owners.includes(scope.own)) continue;
    const asOwners = owners.map((o) => `the ${o}`).join(' or ');
    const consequence = owners.length > 0 ? `"${role}" takes it only as ${asOwners}` : `this grant lets "${role}" take nothing`;
    const asOwner = owners.length > 0 ? `, or say that it narrows what "${role}" may take as ${asOwners} with own: '${owners[0]}'` : '';
    issues.add(
      at(at(path, 'transitions'), name),
      `role "${role}" is not in the allow list of ${entityName}'s transition "${name}", and a grant no longer lets a role take a transition by itself: ` +
        `allow says who may take it, the grant on which records (both must hold), so ${consequence}. ` +
        `Add "${role}" to workflows.${entityName}.transitions.${name}.allow${asOwner}, or remove this grant`,
    );
  }
}
