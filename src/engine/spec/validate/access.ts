import { checkCondition } from './conditions';
import { at, describeValue, IDENTIFIER, IDENTIFIER_RULE, quoteList, type EntityInfo, type Issues, type Rec, type Symbols } from './context';
import { isUserField, userFields } from './symbols';

const ROLE_KEYS = ['label', 'description'];
const ACTIONS = ['list', 'read', 'create', 'update', 'delete'] as const;
const FIELD_LISTS = ['hiddenFields', 'readOnlyFields', 'writableFields'] as const;
const GRANT_KEYS = [...ACTIONS, 'transitions', ...FIELD_LISTS];

/** Point 6, roles: identifiers with an optional label and description. */
export function checkRoles(spec: Rec, issues: Issues): void {
  if (spec.roles === undefined || !issues.record(spec.roles, 'roles', 'roles')) return;
  for (const [name, role] of Object.entries(spec.roles)) {
    const path = at('roles', name);
    if (!IDENTIFIER.test(name)) issues.add(path, `role names are identifiers: ${IDENTIFIER_RULE}`);
    if (!issues.record(role, path, 'a role')) continue;
    issues.unknownKeys(role, ROLE_KEYS, path, 'a role');
    for (const key of ROLE_KEYS) issues.optionalString(role, key, path);
  }
}

/** Point 6, permissions: by entity, then role, a grant of actions, transitions and field rules. */
export function checkPermissions(spec: Rec, symbols: Symbols, issues: Issues): void {
  if (spec.permissions === undefined || !issues.record(spec.permissions, 'permissions', 'permissions')) return;
  for (const [entityName, byRole] of Object.entries(spec.permissions)) {
    const entityPath = at('permissions', entityName);
    const entity = symbols.entities.get(entityName);
    if (!entity) {
      issues.add(entityPath, `unknown entity "${entityName}" (entities: ${quoteList(symbols.entities.keys())})`);
      continue;
    }
    if (!issues.record(byRole, entityPath, 'permissions of an entity')) continue;
    for (const [role, grant] of Object.entries(byRole)) {
      const path = at(entityPath, role);
      if (!symbols.roles.has(role)) issues.add(path, `unknown role "${role}" (roles: ${quoteList(symbols.roles)})`);
      else if (issues.record(grant, path, 'a grant')) checkGrant(grant, path, entity, symbols, issues);
    }
  }
}

function checkGrant(grant: Rec, path: string, entity: EntityInfo, symbols: Symbols, issues: Issues): void {
  issues.unknownKeys(grant, GRANT_KEYS, path, 'a grant');
  for (const action of ACTIONS) {
    if (grant[action] !== undefined) checkScope(grant[action], at(path, action), entity, symbols, issues);
  }
  if (grant.transitions !== undefined) checkTransitionGrants(grant.transitions, at(path, 'transitions'), entity, symbols, issues);
  const lists: Partial<Record<(typeof FIELD_LISTS)[number], string[]>> = {};
  for (const key of FIELD_LISTS) {
    if (grant[key] === undefined) continue;
    const names = issues.stringList(grant[key], at(path, key));
    names.forEach((name, index) => {
      if (!entity.fields.has(name)) issues.add(at(at(path, key), index), `unknown field "${name}" of ${entity.name}`);
    });
    issues.duplicates(names, at(path, key), 'field');
    lists[key] = names;
  }
  for (const other of ['hiddenFields', 'readOnlyFields'] as const) {
    for (const name of lists.writableFields ?? []) {
      if (lists[other]?.includes(name)) issues.add(at(path, 'writableFields'), `"${name}" is both writable and in ${other}`);
    }
  }
}

function checkTransitionGrants(transitions: unknown, path: string, entity: EntityInfo, symbols: Symbols, issues: Issues): void {
  if (!issues.record(transitions, path, 'transitions')) return;
  const declared = entity.workflow?.transitions;
  for (const [name, scope] of Object.entries(transitions)) {
    if (!declared) issues.add(at(path, name), `${entity.name} has no workflow, so no transitions`);
    else if (!declared.includes(name)) {
      issues.add(at(path, name), `unknown transition "${name}" of ${entity.name} (transitions: ${quoteList(declared)})`);
    } else checkScope(scope, at(path, name), entity, symbols, issues);
  }
}

/** true, { own: <user field> }, { where: <condition> } or both. */
function checkScope(scope: unknown, path: string, entity: EntityInfo, symbols: Symbols, issues: Issues): void {
  if (scope === true) return;
  if (scope === false) {
    issues.add(path, 'leave the action out to deny it; a scope is true, { own }, { where } or { own, where }');
    return;
  }
  if (!issues.record(scope, path, 'a scope (true, { own }, { where } or { own, where })')) return;
  issues.unknownKeys(scope, ['own', 'where'], path, 'a scope');
  if (scope.own === undefined && scope.where === undefined) issues.add(path, 'a scope needs "own", "where" or both (or true)');
  if (scope.own !== undefined && !isUserField(entity, scope.own)) {
    issues.add(at(path, 'own'), `${describeValue(scope.own)} is not a user field of ${entity.name} (user fields: ${quoteList(userFields(entity))})`);
  }
  if (scope.where !== undefined) checkCondition(scope.where, at(path, 'where'), entity, symbols, issues);
}

/** Point 5, entity rules: by entity, then rule name. */
export function checkRules(spec: Rec, symbols: Symbols, issues: Issues): void {
  if (spec.rules === undefined || !issues.record(spec.rules, 'rules', 'rules')) return;
  for (const [entityName, rules] of Object.entries(spec.rules)) {
    const entityPath = at('rules', entityName);
    const entity = symbols.entities.get(entityName);
    if (!entity) {
      issues.add(entityPath, `unknown entity "${entityName}" (entities: ${quoteList(symbols.entities.keys())})`);
      continue;
    }
    if (!issues.record(rules, entityPath, 'rules of an entity')) continue;
    for (const [name, rule] of Object.entries(rules)) {
      const path = at(entityPath, name);
      if (!issues.record(rule, path, 'a rule')) continue;
      issues.unknownKeys(rule, ['message', 'when', 'assert', 'field'], path, 'a rule');
      issues.requiredText(rule, 'message', path);
      if (rule.when !== undefined) checkCondition(rule.when, at(path, 'when'), entity, symbols, issues);
      if (rule.assert === undefined) issues.add(at(path, 'assert'), 'is required: the condition every record must meet');
      else checkCondition(rule.assert, at(path, 'assert'), entity, symbols, issues);
      if (rule.field !== undefined && (typeof rule.field !== 'string' || !entity.fields.has(rule.field))) {
        issues.add(at(path, 'field'), `unknown field ${describeValue(rule.field)} of ${entity.name}`);
      }
    }
  }
}
