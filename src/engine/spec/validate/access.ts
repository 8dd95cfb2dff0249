import { AUTHOR_COLUMNS } from '../author-columns';
import { checkCondition } from './conditions';
import { checkRefusalCode } from './refusal-code';
import { at, describeValue, IDENTIFIER, IDENTIFIER_RULE, quoteList, type EntityInfo, type Issues, type Rec, type Symbols } from './context';
import { checkPublicGrant, PUBLIC_ROLE } from './public';
import { isOwnerField, ownerFields } from './symbols';
import { ADMIN_ROLE } from '../../access/policy';

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

/** A `via` of a scope: from the entity of the grant to the entity its reference field names. */
interface ViaEdge {
  readonly from: string;
  readonly to: string;
  readonly path: string;
}

/** Point 6, permissions: by entity, then role, a grant of actions, transitions and field rules. */
export function checkPermissions(spec: Rec, symbols: Symbols, issues: Issues): void {
  if (spec.permissions === undefined || !issues.record(spec.permissions, 'permissions', 'permissions')) return;
  const vias: ViaEdge[] = [];
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
      if (!symbols.roles.has(role) && role !== ADMIN_ROLE && role !== PUBLIC_ROLE)
        issues.add(path, `unknown role "${role}" (roles: ${quoteList(symbols.roles)})`);
      else if (issues.record(grant, path, 'a grant')) {
        checkGrant(grant, path, entity, { symbols, issues, vias });
        if (role === PUBLIC_ROLE) checkPublicGrant(grant, path, entity, issues);
      }
    }
  }
  checkViaCycles(vias, issues);
}

interface GrantCheck {
  readonly symbols: Symbols;
  readonly issues: Issues;
  readonly vias: ViaEdge[];
}

function checkGrant(grant: Rec, path: string, entity: EntityInfo, check: GrantCheck): void {
  const { issues } = check;
  issues.unknownKeys(grant, GRANT_KEYS, path, 'a grant');
  for (const action of ACTIONS) {
    if (grant[action] !== undefined) checkScope(grant[action], at(path, action), entity, check);
  }
  if (grant.transitions !== undefined) checkTransitionGrants(grant.transitions, at(path, 'transitions'), entity, check);
  const lists: Partial<Record<(typeof FIELD_LISTS)[number], string[]>> = {};
  for (const key of FIELD_LISTS) {
    if (grant[key] === undefined) continue;
    const names = issues.stringList(grant[key], at(path, key));
    names.forEach((name, index) => {
      // Who created and who changed a record last may be hidden like a field; nobody writes them.
      if (key === 'hiddenFields' && AUTHOR_COLUMNS.includes(name)) return;
      if (!entity.fields.has(name))
        issues.add(
          at(at(path, key), index),
          `unknown field "${name}" of ${entity.name}${key === 'hiddenFields' ? ` (or ${quoteList(AUTHOR_COLUMNS)})` : ''}`,
        );
    });
    issues.duplicates(names, at(path, key), 'field');
    lists[key] = names;
  }
  for (const other of ['hiddenFields', 'readOnlyFields'] as const) {
    for (const name of lists.writableFields ?? []) {
      // At the entry itself: the place to change.
      const entry = at(at(path, 'writableFields'), (grant.writableFields as readonly unknown[]).indexOf(name));
      if (lists[other]?.includes(name)) issues.add(entry, `"${name}" is both writable and in ${other}, so this role can never write it`);
    }
  }
}

function checkTransitionGrants(transitions: unknown, path: string, entity: EntityInfo, check: GrantCheck): void {
  const { issues } = check;
  if (!issues.record(transitions, path, 'transitions')) return;
  const declared = entity.workflow?.transitions;
  for (const [name, scope] of Object.entries(transitions)) {
    if (!declared) issues.add(at(path, name), `${entity.name} has no workflow, so no transitions`);
    else if (!declared.includes(name)) {
      issues.add(at(path, name), `unknown transition "${name}" of ${entity.name} (transitions: ${quoteList(declared)})`);
    } else checkScope(scope, at(path, name), entity, check);
  }
}

/** true, or any of { own: <user field>, where: <condition>, via: <reference field> }. */
function checkScope(scope: unknown, path: string, entity: EntityInfo, check: GrantCheck): void {
  const { symbols, issues } = check;
  if (scope === true) return;
  if (scope === false) {
    issues.add(path, 'leave the action out to deny it; a scope is true or any of { own, where, via }');
    return;
  }
  if (!issues.record(scope, path, 'a scope (true, or any of { own, where, via })')) return;
  issues.unknownKeys(scope, ['own', 'where', 'via'], path, 'a scope');
  if (scope.own === undefined && scope.where === undefined && scope.via === undefined) {
    issues.add(path, 'a scope needs "own", "where", "via" or some of them (or true)');
  }
  if (scope.own !== undefined && !isOwnerField(entity, scope.own)) {
    issues.add(
      at(path, 'own'),
      `${describeValue(scope.own)} is not a user or users field of ${entity.name} (such fields: ${quoteList(ownerFields(entity))})`,
    );
  }
  // A scope is a query's WHERE: it may ask about related records ("patients I have an appointment with").
  if (scope.where !== undefined) checkCondition(scope.where, at(path, 'where'), entity, symbols, issues, { actor: true, exists: true });
  if (scope.via !== undefined) {
    const field = typeof scope.via === 'string' ? entity.fields.get(scope.via) : undefined;
    const target = field?.type === 'reference' && typeof field.to === 'string' ? field.to : undefined;
    if (target === undefined || !symbols.entities.has(target)) {
      issues.add(
        at(path, 'via'),
        `${describeValue(scope.via)} is not a reference field of ${entity.name} (reference fields: ${quoteList(referenceFields(entity))})`,
      );
    } else {
      check.vias.push({ from: entity.name, to: target, path: at(path, 'via') });
    }
  }
}

function referenceFields(entity: EntityInfo): string[] {
  return [...entity.fields].filter(([, field]) => field.type === 'reference').map(([name]) => name);
}

/**
 * `via` follows the read scope of the referenced entity, whose own scopes may use `via` again:
 * a chain that comes back to where it started would never end.
 */
function checkViaCycles(vias: readonly ViaEdge[], issues: Issues): void {
  const next = new Map<string, ViaEdge[]>();
  for (const edge of vias) next.set(edge.from, [...(next.get(edge.from) ?? []), edge]);
  const reported = new Set<string>();
  for (const start of vias) {
    // Depth-first from the edge's target: does some chain of vias lead back to its source?
    const seen = new Set<string>();
    const stack: { entity: string; chain: string[] }[] = [{ entity: start.to, chain: [start.from, start.to] }];
    while (stack.length > 0) {
      const { entity, chain } = stack.pop()!;
      if (entity === start.from) {
        if (!reported.has(start.path)) issues.add(start.path, `"via" goes round in a circle: ${chain.join(' → ')}`);
        reported.add(start.path);
        break;
      }
      if (seen.has(entity)) continue;
      seen.add(entity);
      for (const edge of next.get(entity) ?? []) stack.push({ entity: edge.to, chain: [...chain, edge.to] });
    }
  }
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
      issues.unknownKeys(rule, ['message', 'when', 'assert', 'field', 'onChange', 'error'], path, 'a rule');
      checkRefusalCode(rule.error, at(path, 'error'), symbols, issues);
      issues.optionalBoolean(rule, 'onChange', path);
      if (rule.onChange === true && rule.field === undefined)
        issues.add(at(path, 'onChange'), 'needs `field`: the field whose change the rule is checked on');
      issues.requiredText(rule, 'message', path);
      // A rule holds for the user who writes: it may compare with them (`{ actor: 'id' }`).
      if (rule.when !== undefined) checkCondition(rule.when, at(path, 'when'), entity, symbols, issues, { actor: true });
      if (rule.assert === undefined) issues.add(at(path, 'assert'), 'is required: the condition every record must meet');
      else checkCondition(rule.assert, at(path, 'assert'), entity, symbols, issues, { actor: true });
      if (rule.field !== undefined && (typeof rule.field !== 'string' || !entity.fields.has(rule.field))) {
        issues.add(at(path, 'field'), `unknown field ${describeValue(rule.field)} of ${entity.name}`);
      }
    }
  }
}
