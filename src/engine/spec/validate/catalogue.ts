import { BUILT_IN_ERRORS } from '../../errors/catalogue';
import { LIMIT_CONSTANTS } from '../../limits';
import { defaultPlural } from '../naming';
import { refusePublicRole } from './public';
import {
  at,
  describeValue,
  IDENTIFIER,
  IDENTIFIER_RULE,
  isConstantRef,
  isFiniteNumber,
  isInteger,
  isRecord,
  isString,
  quoteList,
  type Issues,
  type Rec,
  type Symbols,
} from './context';
import { checkField } from './fields';

const CALL_KEYS = ['method', 'path', 'summary', 'params', 'input', 'output', 'roles', 'errors', 'handler'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const PARAM_TYPES = ['integer', 'text', 'boolean'];
const CALL_PATH = /^\/[A-Za-z0-9\-._~{}/]*$/;
const ERROR_CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/** Point 7: custom calls under /api/v1. */
export function checkCalls(spec: Rec, symbols: Symbols, issues: Issues): void {
  if (spec.calls === undefined || !issues.record(spec.calls, 'calls', 'calls')) return;
  const generated = generatedRoutes(spec);
  const routes = new Map<string, string>();
  for (const [name, call] of Object.entries(spec.calls)) {
    const path = at('calls', name);
    if (!IDENTIFIER.test(name)) issues.add(path, `call names are identifiers: ${IDENTIFIER_RULE}`);
    if (!issues.record(call, path, 'a call')) continue;
    issues.unknownKeys(call, CALL_KEYS, path, 'a call');
    if (!METHODS.includes(String(call.method))) {
      issues.add(at(path, 'method'), `unknown method ${describeValue(call.method)} (expected one of ${METHODS.join(', ')})`);
    }
    checkCallPath(call, path, issues);
    const route = isString(call.path) ? `${String(call.method)} ${call.path.replace(/\{[^}]*\}/g, '{}')}` : null;
    if (route && routes.has(route)) issues.add(at(path, 'path'), `the call "${routes.get(route)}" already answers ${route}`);
    if (route && isString(call.path) && generated.has(call.path.replace(/\{[^}]*\}/g, '{}'))) {
      issues.add(at(path, 'path'), `${call.path} is served by the generated API; choose another path`);
    }
    if (route) routes.set(route, name);
    issues.optionalString(call, 'summary', path);
    checkCallIo(call, path, symbols, issues);
    checkCallRoles(call.roles, at(path, 'roles'), symbols, issues);
    if (call.errors !== undefined) checkCallErrors(call.errors, at(path, 'errors'), symbols, issues);
    if (typeof call.handler !== 'function') issues.add(at(path, 'handler'), `must be a function, got ${describeValue(call.handler)}`);
  }
}

/** The generated record routes, with parameters written "{}": /tickets and /tickets/{}. */
function generatedRoutes(spec: Rec): Set<string> {
  const routes = new Set<string>(['/openapi.json', '/auth/me', '/auth/sign-in', '/auth/sign-out']);
  for (const [name, entity] of Object.entries(isRecord(spec.entities) ? spec.entities : {})) {
    const plural = isRecord(entity) && isString(entity.plural) ? entity.plural : defaultPlural(name);
    routes.add(`/${plural}`).add(`/${plural}/{}`);
  }
  return routes;
}

function checkCallPath(call: Rec, path: string, issues: Issues): void {
  const callPath = call.path;
  if (!isString(callPath) || !callPath.startsWith('/') || !CALL_PATH.test(callPath)) {
    issues.add(at(path, 'path'), `must start with "/" and hold only URL characters and {params}, got ${describeValue(callPath)}`);
    return;
  }
  // The group is not optional: every match has it.
  const inPath = [...callPath.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
  const params = isRecord(call.params) ? call.params : {};
  if (call.params !== undefined && !isRecord(call.params)) issues.add(at(path, 'params'), 'must be an object of parameter types');
  for (const name of inPath) {
    if (!(name in params)) issues.add(at(path, 'path'), `parameter "{${name}}" is not declared in params`);
  }
  issues.duplicates(inPath, at(path, 'path'), 'parameter');
  for (const [name, type] of Object.entries(params)) {
    const paramPath = at(at(path, 'params'), name);
    if (!inPath.includes(name)) issues.add(paramPath, `parameter "${name}" does not appear in the path ${callPath}`);
    if (!PARAM_TYPES.includes(String(type))) {
      issues.add(paramPath, `unknown parameter type ${describeValue(type)} (expected one of ${PARAM_TYPES.join(', ')})`);
    }
  }
}

function checkCallIo(call: Rec, path: string, symbols: Symbols, issues: Issues): void {
  const checkFields = (fields: unknown, fieldsPath: string) => {
    if (!issues.record(fields, fieldsPath, 'fields')) return;
    for (const [name, field] of Object.entries(fields)) {
      if (!IDENTIFIER.test(name)) issues.add(at(fieldsPath, name), `field names are identifiers: ${IDENTIFIER_RULE}`);
      checkField(field, at(fieldsPath, name), symbols, issues);
      // A call's input is what its caller sends, its output what its handler returns: nothing computes them.
      if (isRecord(field) && field.computed !== undefined)
        issues.add(at(at(fieldsPath, name), 'computed'), "a call's fields are not computed");
    }
  };
  if (call.input !== undefined) checkFields(call.input, at(path, 'input'));
  const output = call.output;
  if (isString(output)) {
    if (!symbols.entities.has(output)) issues.add(at(path, 'output'), `unknown entity "${output}"`);
  } else if (output !== undefined) checkFields(output, at(path, 'output'));
}

function checkCallRoles(roles: unknown, path: string, symbols: Symbols, issues: Issues): void {
  if (roles === undefined) {
    issues.add(path, 'is required: the roles that may make this call');
    return;
  }
  const names = issues.stringList(roles, path);
  if (Array.isArray(roles) && roles.length === 0) issues.add(path, 'no role could make this call; name at least one');
  names.forEach((name, index) => {
    if (refusePublicRole(name, at(path, index), issues, 'make calls')) return;
    if (!symbols.roles.has(name)) issues.add(at(path, index), `unknown role "${name}" (roles: ${quoteList(symbols.roles)})`);
  });
  issues.duplicates(names, path, 'role');
}

function checkCallErrors(errors: unknown, path: string, symbols: Symbols, issues: Issues): void {
  const codes = issues.stringList(errors, path);
  codes.forEach((code, index) => {
    if (!symbols.errorCodes.has(code)) issues.add(at(path, index), `unknown error code "${code}" (not built in, not under errors)`);
  });
  issues.duplicates(codes, path, 'error code');
}

/** Point 8: the spec's own error codes. */
export function checkErrors(spec: Rec, issues: Issues): void {
  if (spec.errors === undefined || !issues.record(spec.errors, 'errors', 'errors')) return;
  for (const [code, error] of Object.entries(spec.errors)) {
    const path = at('errors', code);
    if (!ERROR_CODE.test(code)) issues.add(path, 'error codes are UPPER_SNAKE_CASE, e.g. TICKET_CLOSED');
    else if (code in BUILT_IN_ERRORS) issues.add(path, `"${code}" is a built-in error code and cannot be redefined`);
    if (!issues.record(error, path, 'an error')) continue;
    issues.unknownKeys(error, ['status', 'title', 'message'], path, 'an error');
    if (!isInteger(error.status) || error.status < 400 || error.status > 599) {
      issues.add(at(path, 'status'), `must be an HTTP error status, an integer from 400 to 599, got ${describeValue(error.status)}`);
    }
    issues.requiredText(error, 'title', path);
    issues.requiredText(error, 'message', path);
  }
}

/** Point 9: named business values. */
export function checkConstants(spec: Rec, issues: Issues): void {
  if (spec.constants === undefined || !issues.record(spec.constants, 'constants', 'constants')) return;
  for (const [name, constant] of Object.entries(spec.constants)) {
    const path = at('constants', name);
    if (!IDENTIFIER.test(name)) issues.add(path, `constant names are identifiers: ${IDENTIFIER_RULE}`);
    if (!issues.record(constant, path, 'a constant')) continue;
    issues.unknownKeys(constant, ['value', 'unit', 'description'], path, 'a constant');
    if (!('value' in constant) || constant.value === undefined) issues.add(at(path, 'value'), 'is required');
    else if (!isConstantValue(constant.value)) {
      issues.add(at(path, 'value'), `must be a number, a string, a boolean or an object of numbers, got ${describeValue(constant.value)}`);
    } else {
      checkLimitConstant(name, constant.value, at(path, 'value'), issues);
    }
    issues.optionalString(constant, 'unit', path);
    issues.optionalString(constant, 'description', path);
  }
}

/**
 * A constant named after a limit (apiMaxPageSize, sessionIdleMinutes, signInAttemptsPerIp, ...)
 * sets that limit: a whole number in its range.
 */
function checkLimitConstant(name: string, value: unknown, path: string, issues: Issues): void {
  const limit = Object.values(LIMIT_CONSTANTS).find((l) => l.constant === name);
  if (!limit) return;
  if (!isInteger(value) || value < 1 || value > limit.max) {
    issues.add(path, `"${name}" sets ${limit.what}: it must be a whole number from 1 to ${limit.max}, got ${describeValue(value)}`);
  }
}

function isConstantValue(value: unknown): boolean {
  if (isFiniteNumber(value) || isString(value) || typeof value === 'boolean') return true;
  return isRecord(value) && Object.keys(value).length > 0 && Object.values(value).every(isFiniteNumber);
}

/** Every `{ $constant: name }` anywhere in the spec must name a declared constant. */
export function checkConstantRefs(spec: Rec, symbols: Symbols, issues: Issues): void {
  const seen = new WeakSet<object>();
  const walk = (value: unknown, path: string): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (isConstantRef(value)) {
      issues.unknownKeys(value, ['$constant'], path, 'a constant reference');
      const name = value.$constant;
      if (!isString(name)) issues.add(path, `a constant reference needs a name, got ${describeValue(name)}`);
      else if (!symbols.constants.has(name)) issues.add(path, `constant "${name}" is not declared`);
      return;
    }
    if (Array.isArray(value)) value.forEach((item: unknown, index) => walk(item, at(path, index)));
    else for (const [key, item] of Object.entries(value)) walk(item, at(path, key));
  };
  walk(spec, '');
}
