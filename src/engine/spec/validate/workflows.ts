import { isGuardList } from '../guards';
import { toSnakeCase } from '../naming';
import { checkAuto, checkAutoTransition } from './auto';
import { checkCondition } from './conditions';
import { refusePublicRole } from './public';
import { checkRoleKeyed } from './role-keyed';
import {
  at,
  describeValue,
  IDENTIFIER,
  IDENTIFIER_RULE,
  isRecord,
  isString,
  quoteList,
  type EntityInfo,
  type Issues,
  type Rec,
  type Symbols,
  type WorkflowInfo,
} from './context';
import { SYSTEM_FIELD_NAMES } from './entities';
import { checkEffectValue } from './effect-value';
import { checkReferenceEffect, checkTargets, isReferenceEffectEntry } from './reference-effects';
import { isOwnerField, ownerFields } from './symbols';

const WORKFLOW_KEYS = ['field', 'finalError', 'states', 'transitions'];
const STATE_KEYS = ['label', 'initial', 'final', 'description', 'roles'];
const STATE_WORDS_KEYS = ['label', 'description'];
const TRANSITION_KEYS = ['label', 'from', 'to', 'allow', 'requires', 'guard', 'guardMessage', 'guardError', 'effects', 'comment', 'auto'];
const STATE_NAME = /^[a-z][A-Za-z0-9_]*$/;

interface WorkflowScope {
  readonly entity: EntityInfo;
  readonly workflow: WorkflowInfo;
  readonly finalStates: ReadonlySet<string>;
  readonly symbols: Symbols;
  readonly issues: Issues;
}

export function checkWorkflows(spec: Rec, symbols: Symbols, issues: Issues): void {
  if (spec.workflows === undefined || !issues.record(spec.workflows, 'workflows', 'workflows')) return;
  for (const [name, workflow] of Object.entries(spec.workflows)) {
    const path = at('workflows', name);
    const entity = symbols.entities.get(name);
    if (!entity) {
      issues.add(path, `unknown entity "${name}" (workflows are keyed by entity)`);
      continue;
    }
    if (!issues.record(workflow, path, 'a workflow') || !entity.workflow) continue;
    issues.unknownKeys(workflow, WORKFLOW_KEYS, path, 'a workflow');
    checkStateField(workflow.field, entity, at(path, 'field'), issues);
    if (workflow.finalError !== undefined && !(isString(workflow.finalError) && symbols.errorCodes.has(workflow.finalError))) {
      issues.add(at(path, 'finalError'), `unknown error code ${describeValue(workflow.finalError)} (not built in, not under errors)`);
    }
    const finalStates = checkStates(workflow.states, at(path, 'states'), symbols, issues);
    const scope: WorkflowScope = { entity, workflow: entity.workflow, finalStates, symbols, issues };
    checkTransitions(workflow.transitions, at(path, 'transitions'), scope);
  }
}

function checkStateField(field: unknown, entity: EntityInfo, path: string, issues: Issues): void {
  if (field === undefined) return;
  if (!isString(field) || !IDENTIFIER.test(field)) {
    issues.add(path, `the state field name is an identifier (${IDENTIFIER_RULE}), got ${describeValue(field)}`);
  } else if (SYSTEM_FIELD_NAMES.map(toSnakeCase).includes(toSnakeCase(field))) {
    issues.add(path, `"${field}" is reserved: every record has it`);
  } else {
    const clash = [...entity.fields.keys()].find((name) => toSnakeCase(name) === toSnakeCase(field));
    if (clash) issues.add(path, `"${field}" collides with the field "${clash}" of ${entity.name}`);
  }
}

/** Checks the states; returns the final ones. */
function checkStates(states: unknown, path: string, symbols: Symbols, issues: Issues): Set<string> {
  const finalStates = new Set<string>();
  if (!isRecord(states) || Object.keys(states).length === 0) {
    issues.add(path, 'a workflow needs at least one state');
    return finalStates;
  }
  let initial: string | null = null;
  for (const [name, state] of Object.entries(states)) {
    const statePath = at(path, name);
    if (!STATE_NAME.test(name))
      issues.add(statePath, 'state names are lower-case identifiers: letters, digits and "_", starting with a letter');
    if (!issues.record(state, statePath, 'a state')) continue;
    issues.unknownKeys(state, STATE_KEYS, statePath, 'a state');
    for (const key of ['label', 'description']) issues.optionalString(state, key, statePath);
    for (const key of ['initial', 'final']) issues.optionalBoolean(state, key, statePath);
    if (state.roles !== undefined)
      checkRoleKeyed(
        state.roles,
        at(statePath, 'roles'),
        "a role's words for a state",
        { symbols, issues, visitors: true },
        (words, place) => {
          issues.unknownKeys(words, STATE_WORDS_KEYS, place, "a role's words for a state");
          for (const key of STATE_WORDS_KEYS) issues.optionalString(words, key, place);
          if (words.label === undefined && words.description === undefined)
            issues.add(place, 'says nothing: give a label, a description or both');
        },
      );
    if (state.final === true) finalStates.add(name);
    if (state.initial !== true) continue;
    if (initial === null) initial = name;
    else issues.add(at(statePath, 'initial'), `only one state can be initial; "${initial}" is already initial`);
  }
  return finalStates;
}

function checkTransitions(transitions: unknown, path: string, scope: WorkflowScope): void {
  const { issues } = scope;
  if (transitions === undefined) {
    issues.add(path, 'is required (use {} for a workflow without transitions)');
    return;
  }
  if (!issues.record(transitions, path, 'transitions')) return;
  for (const [name, transition] of Object.entries(transitions)) {
    const transitionPath = at(path, name);
    if (!IDENTIFIER.test(name)) issues.add(transitionPath, `transition names are identifiers: ${IDENTIFIER_RULE}`);
    if (!issues.record(transition, transitionPath, 'a transition')) continue;
    issues.unknownKeys(transition, TRANSITION_KEYS, transitionPath, 'a transition');
    issues.optionalString(transition, 'label', transitionPath);
    checkFrom(transition.from, at(transitionPath, 'from'), scope);
    checkTargets(transition.to, at(transitionPath, 'to'), scope.entity, scope.symbols, issues, (state, place) =>
      checkStateName(state, place, scope),
    );
    checkAllow(transition.allow, at(transitionPath, 'allow'), scope, transition.auto !== undefined);
    if (transition.auto !== undefined) {
      checkAuto(transition.auto, at(transitionPath, 'auto'), scope.entity, scope.symbols, issues);
      checkAutoTransition(transition, transitionPath, issues);
    }
    if (transition.requires !== undefined) checkFieldList(transition.requires, at(transitionPath, 'requires'), scope);
    checkGuard(transition, transitionPath, scope);
    if (transition.effects !== undefined) checkEffects(transition.effects, at(transitionPath, 'effects'), scope);
    if (transition.comment !== undefined && transition.comment !== 'required' && transition.comment !== 'optional') {
      issues.add(at(transitionPath, 'comment'), `must be "required" or "optional", got ${describeValue(transition.comment)}`);
    }
  }
}

/**
 * A guard is one condition worded by `guardMessage` and `guardError`, or a list of
 * `{ when, error?, message? }` checked in order. Each is checked for the user taking the
 * transition, so it may compare with them (four eyes); each code must be in the catalogue.
 */
function checkGuard(transition: Rec, path: string, scope: WorkflowScope): void {
  const { issues, entity, symbols } = scope;
  const guardPath = at(path, 'guard');
  // The scheduler takes an automatic transition as nobody in particular: its guards cannot ask who.
  const actor = transition.auto === undefined;
  if (!isGuardList(transition.guard)) {
    if (transition.guard !== undefined) checkCondition(transition.guard, guardPath, entity, symbols, issues, { actor });
    issues.optionalString(transition, 'guardMessage', path);
    checkErrorCode(transition.guardError, at(path, 'guardError'), scope);
    return;
  }
  if (transition.guard.length === 0) issues.add(guardPath, 'a list of guards needs at least one { when, error?, message? }');
  for (const key of ['guardMessage', 'guardError'] as const) {
    if (transition[key] !== undefined)
      issues.add(at(path, key), `a list of guards gives each guard its own ${key === 'guardMessage' ? 'message' : 'error'}`);
  }
  transition.guard.forEach((guard: unknown, index) => {
    const place = at(guardPath, index);
    if (!issues.record(guard, place, 'a guard')) return;
    issues.unknownKeys(guard, ['when', 'error', 'message'], place, 'a guard');
    if (guard.when === undefined) issues.add(at(place, 'when'), 'is required: the condition that must hold');
    else checkCondition(guard.when, at(place, 'when'), entity, symbols, issues, { actor });
    checkErrorCode(guard.error, at(place, 'error'), scope);
    issues.optionalString(guard, 'message', place);
  });
}

function checkErrorCode(value: unknown, path: string, scope: WorkflowScope): void {
  if (value !== undefined && !(isString(value) && scope.symbols.errorCodes.has(value))) {
    scope.issues.add(path, `unknown error code ${describeValue(value)} (not built in, not under errors)`);
  }
}

function checkFrom(from: unknown, path: string, scope: WorkflowScope): void {
  if (isString(from)) {
    checkStateName(from, path, scope);
    checkNotFinal(from, path, scope);
    return;
  }
  if (!Array.isArray(from) || from.length === 0) {
    scope.issues.add(path, `must be a state or a non-empty list of states, got ${describeValue(from)}`);
    return;
  }
  from.forEach((state: unknown, index) => {
    checkStateName(state, at(path, index), scope);
    if (isString(state)) checkNotFinal(state, at(path, index), scope);
  });
  scope.issues.duplicates(from, path, 'state');
}

function checkStateName(state: unknown, path: string, scope: WorkflowScope): void {
  if (!isString(state)) scope.issues.add(path, `must be the name of a state, got ${describeValue(state)}`);
  else if (!scope.workflow.states.includes(state)) {
    scope.issues.add(path, `unknown state "${state}" (states: ${quoteList(scope.workflow.states)})`);
  }
}

function checkNotFinal(state: string, path: string, scope: WorkflowScope): void {
  if (scope.finalStates.has(state)) scope.issues.add(path, `"${state}" is a final state: no transition may leave it`);
}

function checkAllow(allow: unknown, path: string, scope: WorkflowScope, automatic: boolean): void {
  const { issues, entity, symbols } = scope;
  // An automatic transition may be the scheduler's alone.
  if (!Array.isArray(allow) || (allow.length === 0 && !automatic)) {
    issues.add(path, 'a transition needs a non-empty list of who may take it (role names or { owner })');
    return;
  }
  allow.forEach((actor: unknown, index) => {
    const actorPath = at(path, index);
    if (isString(actor)) {
      if (refusePublicRole(actor, actorPath, issues, 'take transitions')) return;
      if (!symbols.roles.has(actor)) issues.add(actorPath, `unknown role "${actor}" (roles: ${quoteList(symbols.roles)})`);
      return;
    }
    if (!isRecord(actor) || !('owner' in actor)) {
      issues.add(actorPath, `must be a role name or { owner: <user field> }, got ${describeValue(actor)}`);
      return;
    }
    issues.unknownKeys(actor, ['owner', 'when', 'error'], actorPath, 'an { owner } entry');
    if (actor.error !== undefined && !(isString(actor.error) && symbols.errorCodes.has(actor.error))) {
      issues.add(at(actorPath, 'error'), `unknown error code ${describeValue(actor.error)} (not built in, not under errors)`);
    }
    if (!isOwnerField(entity, actor.owner)) {
      issues.add(
        at(actorPath, 'owner'),
        `${describeValue(actor.owner)} is not a user or users field of ${entity.name} (such fields: ${quoteList(ownerFields(entity))})`,
      );
    }
    if (actor.when !== undefined) checkCondition(actor.when, at(actorPath, 'when'), entity, symbols, issues, { actor: true });
  });
  issues.duplicates(allow.filter(isString), path, 'role');
}

function checkFieldList(list: unknown, path: string, scope: WorkflowScope): void {
  const names = scope.issues.stringList(list, path);
  names.forEach((name, index) => {
    if (!scope.entity.fields.has(name)) scope.issues.add(at(path, index), `unknown field "${name}" of ${scope.entity.name}`);
  });
  scope.issues.duplicates(names, path, 'field');
}

function checkEffects(effects: unknown, path: string, scope: WorkflowScope): void {
  const { issues, entity } = scope;
  if (!Array.isArray(effects)) {
    issues.add(path, 'must be a list of { set, to } (or { on, ... } for a referenced record)');
    return;
  }
  const seen = new Set<string>();
  effects.forEach((effect: unknown, index) => {
    const effectPath = at(path, index);
    if (!issues.record(effect, effectPath, 'an effect')) return;
    if (isReferenceEffectEntry(effect)) {
      checkReferenceEffect(effect, effectPath, entity, scope.symbols, issues);
      return;
    }
    issues.unknownKeys(effect, ['set', 'to'], effectPath, 'an effect');
    const name = effect.set;
    const field = isString(name) ? entity.fields.get(name) : undefined;
    if (!isString(name) || !field) {
      const hint = name === scope.workflow.field ? ' (the transition itself sets the state)' : '';
      issues.add(at(effectPath, 'set'), `unknown field ${describeValue(name)} of ${entity.name}${hint}`);
      return;
    }
    if (seen.has(name)) issues.add(at(effectPath, 'set'), `"${name}" is already set by an earlier effect`);
    // A derived value is recounted from its related records: an effect's value would not last.
    if (field.derived !== undefined) issues.add(at(effectPath, 'set'), `"${name}" is derived from related records: no effect may set it`);
    seen.add(name);
    if (!('to' in effect)) issues.add(at(effectPath, 'to'), 'is required (null clears the field)');
    else checkEffectValue(effect.to, field, at(effectPath, 'to'), name, issues);
  });
}
