import { LIMIT_MESSAGE_PLACEHOLDERS, PLACEHOLDER } from '../limit-message';
import { defaultPlural, SYSTEM_TABLE_PREFIX, tableName, toSnakeCase } from '../naming';
import { checkCondition, checkNumberOrConstant } from './conditions';
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
} from './context';
import { checkComputedFields } from './computed';
import { checkDueTimes } from './due';
import { checkDerivedFields } from './derived';
import { checkField } from './fields';
import { checkWithin } from './within';
import { checkUniqueWhen } from './unique-when';
import { checkExclusive } from './exclusive';
import { checkLimitMaxField, isMaxFieldSpec } from './limit-max';
import { entries, isUserField, userFields } from './symbols';
import { isAdmin } from '../../access/policy';
import { checkOnCreate } from './reference-effects';
import { checkSamples } from './samples';

const ENTITY_KEYS = [
  'label',
  'plural',
  'pluralLabel',
  'description',
  'titleField',
  'fields',
  'uniqueTogether',
  'uniqueWhen',
  'limits',
  'exclusive',
  'writtenBy',
  'onCreate',
  'samples',
];
/** Keys only an entity's fields take (checked by checkDerivedFields): a user's or a call's field has no related records. */
const ENTITY_FIELD_KEYS = ['derived'];
const LIMIT_KEYS = ['max', 'per', 'where', 'message', 'exempt'];

/** Properties every record has; a field may not take their names (or their column names). */
export const SYSTEM_FIELD_NAMES = ['id', 'version', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy'];
const SYSTEM_COLUMN_NAMES = new Set(SYSTEM_FIELD_NAMES.map(toSnakeCase));

/**
 * First path segments the application serves itself, so no entity may use them as its plural;
 * `files` is the API's (/api/v1/files: uploads and downloads), beside the entities' /api/v1/<plural>.
 */
export const RESERVED_PLURALS = [
  ...['api', 'spec', 'setup', 'sign-in', 'sign-out', 'diagnostics'],
  // eslint-disable-next-line no-restricted-syntax -- the /admin pages' URL segment, not the role
  'admin',
  ...['account', 'invite', 'views', 'inbox', 'unsubscribe', 'webhooks', 'files'],
];
const URL_SEGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function checkEntities(spec: Rec, symbols: Symbols, issues: Issues): void {
  if (spec.entities === undefined || !issues.record(spec.entities, 'entities', 'entities')) return;
  for (const [name, entity] of Object.entries(spec.entities)) {
    const path = at('entities', name);
    checkEntityName(name, path, issues);
    const info = symbols.entities.get(name);
    if (!issues.record(entity, path, 'an entity') || !info) continue;
    issues.unknownKeys(entity, ENTITY_KEYS, path, 'an entity');
    for (const key of ['label', 'pluralLabel', 'description']) issues.optionalString(entity, key, path);
    checkPlural(entity.plural, at(path, 'plural'), issues);
    checkFields(entity, info, path, symbols, issues);
    checkTitleField(entity.titleField, info, at(path, 'titleField'), issues);
    checkTitleChain(spec.entities, name, at(path, 'titleField'), issues);
    checkUniqueTogether(entity.uniqueTogether, info, at(path, 'uniqueTogether'), issues);
    checkUniqueWhen(entity.uniqueWhen, info, at(path, 'uniqueWhen'), symbols, issues);
    checkOnCreate(entity.onCreate, at(path, 'onCreate'), info, symbols, issues);
    checkLimits(entity.limits, info, at(path, 'limits'), symbols, issues);
    checkExclusive(entity.exclusive, info, at(path, 'exclusive'), symbols, issues);
    checkDateBounds(entity, info, path, symbols, issues);
    checkDueTimes(entity, info, path, symbols, issues);
    checkComputedFields(entity, info, path, symbols, issues);
    checkDerivedFields(entity, info, path, symbols, issues);
    checkSamples(entity.samples, info, at(path, 'samples'), issues);
  }
  checkDistinctNames(spec.entities, issues);
}

function checkEntityName(name: string, path: string, issues: Issues): void {
  if (!IDENTIFIER.test(name)) issues.add(path, `entity names are identifiers: ${IDENTIFIER_RULE}`);
  else if (tableName(name).startsWith(SYSTEM_TABLE_PREFIX)) {
    issues.add(path, `entity names starting with "nf" are reserved: tables prefixed "${SYSTEM_TABLE_PREFIX}" belong to the engine`);
  }
}

function checkPlural(plural: unknown, path: string, issues: Issues): void {
  if (plural === undefined) return;
  if (!isString(plural) || !URL_SEGMENT.test(plural)) {
    issues.add(path, `a plural is a URL segment: lower-case letters, digits and dashes, got ${describeValue(plural)}`);
  } else if (RESERVED_PLURALS.includes(plural)) {
    const served = plural === 'files' ? '/api/v1/files' : `/${plural}`;
    issues.add(path, `"${plural}" is reserved: the application serves ${served} itself`);
  }
}

function checkFields(entity: Rec, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  const fieldsPath = at(path, 'fields');
  if (entity.fields === undefined) {
    issues.add(fieldsPath, 'an entity needs fields (an object of field specs)');
    return;
  }
  if (!issues.record(entity.fields, fieldsPath, 'fields')) return;
  const columns = new Map<string, string>();
  for (const [name, field] of Object.entries(entity.fields)) {
    const fieldPath = at(fieldsPath, name);
    checkFieldName(name, fieldPath, info, issues);
    // `within` compares two records' fields: only a reference of an entity has one to compare.
    const within = isRecord(field) && field.type === 'reference' ? ['within'] : [];
    checkField(field, fieldPath, symbols, issues, [...ENTITY_FIELD_KEYS, ...within]);
    checkWithin(field, fieldPath, info, symbols, issues);
    const column = toSnakeCase(name);
    const other = columns.get(column);
    if (other !== undefined) issues.add(fieldPath, `column "${column}" is also the column of field "${other}"`);
    else if (SYSTEM_COLUMN_NAMES.has(column) && !SYSTEM_FIELD_NAMES.includes(name)) {
      issues.add(fieldPath, `column "${column}" is reserved by the engine`);
    }
    columns.set(column, name);
  }
}

function checkFieldName(name: string, path: string, info: EntityInfo, issues: Issues): void {
  if (!IDENTIFIER.test(name)) issues.add(path, `field names are identifiers: ${IDENTIFIER_RULE}`);
  else if (SYSTEM_FIELD_NAMES.includes(name)) {
    issues.add(path, `"${name}" is reserved: every record has it (${SYSTEM_FIELD_NAMES.join(', ')})`);
  } else if (info.workflow && !info.workflow.fieldDeclared && toSnakeCase(info.workflow.field) === toSnakeCase(name)) {
    // A declared workflow field that collides is reported at workflows.<entity>.field instead.
    issues.add(path, `"${name}" is the workflow state field of ${info.name}; rename the field or set workflows.${info.name}.field`);
  }
}

function checkTitleField(titleField: unknown, info: EntityInfo, path: string, issues: Issues): void {
  if (titleField === undefined) return;
  if (!isString(titleField) || !info.fields.has(titleField)) {
    issues.add(path, `unknown field ${describeValue(titleField)} (fields: ${quoteList(info.fields.keys())})`);
  } else if (isReferences(info, titleField)) {
    issues.add(path, `"${titleField}" holds many records and cannot title one`);
  }
}

/**
 * A title that refers to a record is that record's title (ops/record-title.ts); one that comes
 * back to its own entity (a task titled by its parent task, or two entities titled by each other)
 * would never reach a value to show.
 */
function checkTitleChain(entities: Rec, name: string, path: string, issues: Issues): void {
  const seen = [name];
  for (let current = entities[name]; isRecord(current) && isString(current.titleField);) {
    const field = isRecord(current.fields) ? current.fields[current.titleField] : undefined;
    const target = isRecord(field) && field.type === 'reference' && isString(field.to) ? field.to : undefined;
    if (target === undefined) return;
    if (target === name) {
      issues.add(
        path,
        `titles ${[...seen, target].join(' → ')}: a title that refers to a record is that record's title, and this one comes back to ${name}; title one of them by a field of its own`,
      );
      return;
    }
    // A loop further on is reported at the entities in it.
    if (seen.includes(target)) return;
    seen.push(target);
    current = entities[target];
  }
}

function isReferenceField(info: EntityInfo, name: unknown): boolean {
  return isString(name) && info.fields.get(name)?.type === 'reference';
}

/** A set (references, users): kept in a join table, with no column to compare, sort or index. */
function isReferences(info: EntityInfo, name: string): boolean {
  const type = info.fields.get(name)?.type;
  return type === 'references' || type === 'users';
}

function checkUniqueTogether(groups: unknown, info: EntityInfo, path: string, issues: Issues): void {
  if (groups === undefined) return;
  if (!Array.isArray(groups)) {
    issues.add(path, 'must be a list of lists of field names');
    return;
  }
  groups.forEach((group: unknown, index) => {
    const groupPath = at(path, index);
    const names = issues.stringList(group, groupPath);
    if (Array.isArray(group) && group.length === 0) issues.add(groupPath, 'a unique group needs at least one field');
    names.forEach((name, i) => {
      if (!info.fields.has(name)) issues.add(at(groupPath, i), `unknown field "${name}" of ${info.name}`);
      else if (isReferences(info, name)) issues.add(at(groupPath, i), `"${name}" holds many records and cannot be part of a unique group`);
    });
    issues.duplicates(names, groupPath, 'field');
  });
}

/** A date range's bounds are checked as the conditions they become (`value > bound`). */
function checkDateBounds(entity: Rec, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  if (!isRecord(entity.fields)) return;
  for (const [name, field] of Object.entries(entity.fields)) {
    if (!isRecord(field) || (field.type !== 'date' && field.type !== 'datetime')) continue;
    for (const key of ['after', 'before']) {
      const bound = field[key];
      if (bound === undefined) continue;
      const boundPath = at(at(at(path, 'fields'), name), key);
      if (!isRecord(bound) || !('now' in bound || 'field' in bound || 'daysAgo' in bound)) {
        issues.add(boundPath, `must be { now: true }, { field } or { daysAgo }, got ${describeValue(bound)}`);
        continue;
      }
      checkCondition({ field: name, op: 'gt', value: bound }, boundPath, info, symbols, issues);
    }
  }
}

function checkLimits(limits: unknown, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  if (limits === undefined || !issues.record(limits, path, 'limits')) return;
  for (const [name, limit] of Object.entries(limits)) {
    const limitPath = at(path, name);
    if (!issues.record(limit, limitPath, 'a limit')) continue;
    issues.unknownKeys(limit, LIMIT_KEYS, limitPath, 'a limit');
    if (limit.max === undefined) issues.add(at(limitPath, 'max'), 'is required');
    else if (isMaxFieldSpec(limit.max)) checkLimitMaxField(limit.max, limit.per, info, at(limitPath, 'max'), symbols, issues);
    else checkNumberOrConstant(limit.max, at(limitPath, 'max'), symbols, issues, { integer: true, nonNegative: true });
    // Records are counted per owner: a user (a customer's open tickets) or a referenced record
    // (a supplier's open orders); a set of references has no single owner.
    if (!isUserField(info, limit.per) && !isReferenceField(info, limit.per)) {
      const owners = [...userFields(info), ...[...info.fields].filter(([, f]) => f.type === 'reference').map(([n]) => n)];
      issues.add(
        at(limitPath, 'per'),
        `${describeValue(limit.per)} is not a user or reference field of ${info.name} (user and reference fields: ${quoteList(owners)})`,
      );
    }
    if (limit.where !== undefined) checkCondition(limit.where, at(limitPath, 'where'), info, symbols, issues);
    issues.optionalString(limit, 'message', limitPath);
    if (isString(limit.message)) checkPlaceholders(limit.message, at(limitPath, 'message'), issues);
    if (limit.exempt !== undefined) {
      const roles = issues.stringList(limit.exempt, at(limitPath, 'exempt'));
      roles.forEach((role, index) => {
        if (!symbols.roles.has(role) && !isAdmin(role))
          issues.add(at(at(limitPath, 'exempt'), index), `unknown role "${role}" (roles: ${quoteList(symbols.roles)})`);
      });
    }
  }
}

/** A limit's message names the maximum as `{max}`; any other `{...}` would reach the user as written. */
function checkPlaceholders(message: string, path: string, issues: Issues): void {
  for (const [whole, key] of message.matchAll(PLACEHOLDER)) {
    // PLACEHOLDER's one group is not optional: every match has it.
    if (!LIMIT_MESSAGE_PLACEHOLDERS.includes(key!)) {
      issues.add(
        path,
        `unknown placeholder "${whole}" (a limit's message may use ${quoteList(LIMIT_MESSAGE_PLACEHOLDERS.map((p) => `{${p}}`))})`,
      );
    }
  }
}

/** Two entities may not share a URL segment or a table. */
function checkDistinctNames(entities: Rec, issues: Issues): void {
  const plurals = new Map<string, string>();
  const tables = new Map<string, string>();
  for (const [name, entity] of entries(entities)) {
    const declared = isRecord(entity) ? entity.plural : undefined;
    const plural = isString(declared) ? declared : defaultPlural(name);
    const path = at('entities', name);
    const samePlural = plurals.get(plural);
    if (samePlural !== undefined) issues.add(path, `plural "${plural}" is also the plural of entity "${samePlural}"`);
    else plurals.set(plural, name);
    const table = tableName(name);
    const sameTable = tables.get(table);
    if (sameTable !== undefined) issues.add(path, `table "${table}" is also the table of entity "${sameTable}"`);
    else tables.set(table, name);
  }
}
