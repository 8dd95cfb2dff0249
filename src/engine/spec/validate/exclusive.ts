import { checkCondition } from './conditions';
import { at, describeValue, isString, quoteList, type EntityInfo, type Issues, type Rec, type Symbols } from './context';
import { checkLiteralCondition, type LiteralPurpose } from './unique-when';

const EXCLUSIVE_PURPOSE: LiteralPurpose = {
  what: 'an exclusive condition',
  why: "the database keeps the condition as the exclusion constraint's predicate",
};

const EXCLUSIVE_KEYS = ['range', 'per', 'where', 'message', 'error'];
const RANGE_TYPES = new Set(['date', 'datetime']);
/** Field types without a column of their own, or whose values are too long for an index entry. */
const NOT_A_KEY = new Set(['references', 'users', 'markdown']);

/**
 * `exclusive`: one rule or a list of them. The database keeps each as an exclusion constraint
 * (no two rows with equal keys whose ranges overlap), so its range is two date or two datetime
 * fields, its key columns an index can hold, and its condition, as uniqueWhen's, compares fields
 * (or the state) with literal values and constants only.
 */
export function checkExclusive(value: unknown, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    if (value.length === 0) issues.add(path, 'must be a rule ({ range, per, where, message }) or a non-empty list of them');
    value.forEach((rule: unknown, index) => checkRule(rule, info, at(path, index), symbols, issues));
    return;
  }
  checkRule(value, info, path, symbols, issues);
}

function checkRule(rule: unknown, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  if (!issues.record(rule, path, 'an exclusive rule')) return;
  issues.unknownKeys(rule, EXCLUSIVE_KEYS, path, 'an exclusive rule');
  const range = checkRange(rule.range, info, at(path, 'range'), issues);
  checkPer(rule.per, range, info, at(path, 'per'), issues);
  if (rule.where !== undefined) {
    checkCondition(rule.where, at(path, 'where'), info, symbols, issues);
    checkLiteralCondition(rule.where, at(path, 'where'), info, issues, EXCLUSIVE_PURPOSE);
  }
  issues.optionalString(rule, 'message', path);
  checkErrorCode(rule, path, symbols, issues);
}

/** Two distinct fields, both dates or both datetimes: the range's start and end. */
function checkRange(range: unknown, info: EntityInfo, path: string, issues: Issues): readonly string[] {
  if (range === undefined) {
    issues.add(path, 'is required: [start, end], two date or two datetime fields');
    return [];
  }
  const names = issues.stringList(range, path);
  if (Array.isArray(range) && range.length !== 2) {
    issues.add(path, `must be [start, end], two fields, got ${range.length}`);
    return names;
  }
  const types = names.map((name, index) => {
    const field = info.fields.get(name);
    if (!field) issues.add(at(path, index), `unknown field "${name}" of ${info.name} (fields: ${quoteList(info.fields.keys())})`);
    else if (!RANGE_TYPES.has(String(field.type)))
      issues.add(at(path, index), `"${name}" is a ${String(field.type)} field: a range runs between date or datetime fields`);
    return field?.type;
  });
  if (names.length === 2 && names[0] === names[1]) issues.add(path, 'start and end must be two different fields');
  else if (types.length === 2 && types.every((t) => RANGE_TYPES.has(String(t))) && types[0] !== types[1]) {
    issues.add(path, `start and end must have one type, got ${String(types[0])} and ${String(types[1])}`);
  }
  return names;
}

/** The key: one field or a list, none of the range's own, each a column an index can hold. */
function checkPer(per: unknown, range: readonly string[], info: EntityInfo, path: string, issues: Issues): void {
  if (per === undefined) return;
  const list = isString(per) ? [per] : per;
  const names = issues.stringList(list, path);
  if (Array.isArray(list) && list.length === 0)
    issues.add(path, 'needs at least one field (or leave per out: then no two records overlap at all)');
  names.forEach((name, index) => {
    const place = isString(per) ? path : at(path, index);
    const field = info.fields.get(name);
    const isState = info.workflow?.field === name;
    if (!field && !isState) issues.add(place, `unknown field "${name}" of ${info.name} (fields: ${quoteList(info.fields.keys())})`);
    else if (field && NOT_A_KEY.has(String(field.type)))
      issues.add(place, `a ${String(field.type)} field cannot be a key: an exclusion constraint holds columns of short values`);
    else if (range.includes(name)) issues.add(place, `"${name}" is the range's own field, not a key`);
  });
  issues.duplicates(names, path, 'field');
}

function checkErrorCode(rule: Rec, path: string, symbols: Symbols, issues: Issues): void {
  const code = rule.error;
  if (code === undefined) return;
  if (!isString(code) || !symbols.errorCodes.has(code)) {
    issues.add(at(path, 'error'), `unknown error code ${describeValue(code)} (not built in, not under errors)`);
  }
}
