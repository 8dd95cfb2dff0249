import { MAX_REFERENCES } from '../join-fields';
import { DEFAULT_DECIMAL_DIGITS } from '../field-numbers';
import { withArticle } from '../naming';
import { COLOURS, FIELD_MESSAGE_KINDS, FIELD_TYPES, type FieldType } from '../types';
import { checkNumberOrConstant, isFieldType } from './conditions';
import {
  at,
  describeValue,
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
import { checkOwnRecordDefault, withConstantDefault } from './defaults';
import { refusePublicRole } from './public';
import { checkFieldCurrency } from './money';
import { currencyScale } from '../../numbers/currency';
import { ADMIN_ROLE } from '../../access/policy';
import { isAcceptEntry, MAX_FILE_BYTES, MAX_FILES } from '../../files/file-limits';

const BASE_KEYS = ['type', 'label', 'help', 'messages', 'required', 'readOnly', 'writtenBy', 'unique', 'searchable'] as const;

const TYPE_KEYS: Readonly<Record<FieldType, readonly string[]>> = {
  text: ['minLength', 'maxLength', 'pattern', 'patternMessage', 'format', 'default', 'computed'],
  markdown: ['minLength', 'maxLength', 'default'],
  integer: ['min', 'max', 'default', 'computed'],
  decimal: ['precision', 'scale', 'min', 'max', 'default', 'computed'],
  money: ['currency', 'precision', 'min', 'max', 'default', 'computed'],
  boolean: ['default'],
  enum: ['values', 'labels', 'colours', 'default'],
  date: ['default', 'after', 'before', 'rangeMessage', 'computed'],
  datetime: ['default', 'after', 'before', 'rangeMessage', 'due', 'computed'],
  email: ['default'],
  url: ['default'],
  reference: ['to', 'onDelete', 'default'],
  references: ['to', 'maxItems'],
  user: ['default', 'roles'],
  users: ['roles', 'maxItems'],
  file: ['maxBytes', 'accept'],
  files: ['maxItems', 'maxBytes', 'accept'],
};

const SEARCHABLE_TYPES: readonly FieldType[] = ['text', 'markdown', 'email', 'url', 'enum'];
const TEXT_FORMATS = ['hostname'];
const ON_DELETE = ['restrict', 'cascade', 'setNull'];
/** PostgreSQL's own limit for numeric(precision, scale). */
const MAX_DECIMAL_PRECISION = 1000;

interface FieldCheck {
  readonly field: Rec;
  readonly type: FieldType;
  readonly path: string;
  readonly symbols: Symbols;
  readonly issues: Issues;
}

/** Checks one field spec (of an entity, or of a call's input); `extraKeys` are checked by the caller. */
export function checkField(field: unknown, path: string, symbols: Symbols, issues: Issues, extraKeys: readonly string[] = []): void {
  if (!issues.record(field, path, 'a field')) return;
  const type = field.type;
  if (!isFieldType(type)) {
    const got = type === undefined ? 'missing field type' : `unknown field type ${describeValue(type)}`;
    issues.add(at(path, 'type'), `${got} (expected one of ${FIELD_TYPES.join(', ')})`);
    return;
  }
  issues.unknownKeys(field, [...BASE_KEYS, ...TYPE_KEYS[type], ...extraKeys], path, `${withArticle(type)} field`);
  for (const key of ['label', 'help', 'rangeMessage']) issues.optionalString(field, key, path);
  for (const key of ['required', 'readOnly', 'unique', 'searchable']) issues.optionalBoolean(field, key, path);
  if (field.searchable === true && !SEARCHABLE_TYPES.includes(type)) {
    issues.add(at(path, 'searchable'), `${withArticle(type)} field cannot be searchable (only ${SEARCHABLE_TYPES.join(', ')})`);
  }

  checkMessages(field.messages, at(path, 'messages'), issues);
  // A default naming a constant is checked as if the constant's value were written there.
  const check: FieldCheck = { field: withConstantDefault(field, type, path, symbols, issues), type, path, symbols, issues };
  TYPE_CHECKS[type](check);
  if (field.readOnly === true && field.required === true && field.default === undefined) {
    issues.add(at(path, 'readOnly'), 'a read-only field that is required needs a default: forms and the API cannot fill it');
  }
}

const TYPE_CHECKS: Readonly<Record<FieldType, (check: FieldCheck) => void>> = {
  text: (c) => {
    checkLengths(c);
    checkPattern(c);
    if (c.field.format !== undefined && !TEXT_FORMATS.includes(String(c.field.format))) {
      c.issues.add(at(c.path, 'format'), `unknown format ${describeValue(c.field.format)} (expected one of ${TEXT_FORMATS.join(', ')})`);
    }
    checkTextDefault(c);
  },
  markdown: (c) => {
    checkLengths(c);
    checkTextDefault(c);
  },
  integer: (c) => {
    checkRange(c, true);
    checkDefault(c, isInteger, 'an integer');
  },
  decimal: (c) => {
    checkDecimalShape(c, c.field.scale);
    checkRange(c, false);
  },
  money: (c) => {
    const currency = checkFieldCurrency(c.field, c.path, c.symbols, c.issues);
    // The digits after the point are the currency's (EUR 2, JPY 0): a default is checked against them.
    checkDecimalShape(c, currency ? currencyScale(currency) : undefined);
    checkRange(c, false);
  },
  boolean: (c) => checkDefault(c, (v) => typeof v === 'boolean', 'true or false'),
  enum: checkEnum,
  date: (c) => checkDefault(c, isIsoDate, 'a date written YYYY-MM-DD'),
  datetime: (c) => checkDefault(c, (v) => v === 'now', '"now" (the time of creation)'),
  email: (c) => checkDefault(c, (v) => isString(v) && /^[^\s@]+@[^\s@]+$/.test(v), 'an email address'),
  url: (c) => checkDefault(c, isHttpUrl, 'an http(s) URL'),
  reference: checkReference,
  references: checkReferences,
  user: (c) => {
    checkDefault(c, (v) => v === 'actor', '"actor" (the signed-in user)');
    checkHolderRoles(c);
  },
  file: (c) => checkFileLimits(c),
  files: (c) => {
    checkFileLimits(c);
    checkPositiveCap(c, 'maxItems', MAX_FILES);
  },
  users: (c) => {
    checkHolderRoles(c);
    checkMaxItems(c);
    if (c.field.unique === true) c.issues.add(at(c.path, 'unique'), 'a users field cannot be unique');
  },
};

function checkMessages(messages: unknown, path: string, issues: Issues): void {
  if (messages === undefined || !issues.record(messages, path, 'messages')) return;
  issues.unknownKeys(messages, FIELD_MESSAGE_KINDS, path, 'messages');
  for (const kind of FIELD_MESSAGE_KINDS) issues.optionalString(messages, kind, path);
}

function checkDefault(c: FieldCheck, fits: (value: unknown) => boolean, expected: string): void {
  const value = c.field.default;
  if (value !== undefined && !fits(value)) c.issues.add(at(c.path, 'default'), `must be ${expected}, got ${describeValue(value)}`);
}

function checkLengths(c: FieldCheck): void {
  const { field, path, issues } = c;
  for (const key of ['minLength', 'maxLength']) {
    const value = field[key];
    if (value === undefined) continue;
    if (!isInteger(value)) issues.add(at(path, key), `must be an integer, got ${describeValue(value)}`);
    else if (value < 0) issues.add(at(path, key), `must not be negative, got ${value}`);
  }
  if (field.maxLength === 0) issues.add(at(path, 'maxLength'), 'must be at least 1');
  if (isInteger(field.minLength) && isInteger(field.maxLength) && field.minLength > field.maxLength) {
    issues.add(at(path, 'minLength'), `minLength ${field.minLength} is greater than maxLength ${field.maxLength}`);
  }
}

function checkTextDefault(c: FieldCheck): void {
  const { field, path, issues } = c;
  const value = field.default;
  if (value === undefined) return;
  if (!isString(value)) {
    issues.add(at(path, 'default'), `must be a string, got ${describeValue(value)}`);
    return;
  }
  if (isInteger(field.maxLength) && value.length > field.maxLength) {
    issues.add(at(path, 'default'), `is longer than maxLength ${field.maxLength}`);
  }
  if (isInteger(field.minLength) && value.length < field.minLength && value !== '') {
    issues.add(at(path, 'default'), `is shorter than minLength ${field.minLength}`);
  }
  const pattern = compile(field.pattern);
  if (pattern && !pattern.test(value)) issues.add(at(path, 'default'), `does not match the pattern ${field.pattern}`);
}

function checkPattern(c: FieldCheck): void {
  const { field, path, issues } = c;
  if (field.pattern !== undefined) {
    if (!isString(field.pattern)) issues.add(at(path, 'pattern'), `must be a string, got ${describeValue(field.pattern)}`);
    else if (!compile(field.pattern)) issues.add(at(path, 'pattern'), `is not a valid regular expression: ${regExpError(field.pattern)}`);
  }
  issues.optionalString(field, 'patternMessage', path);
  if (field.patternMessage !== undefined && field.pattern === undefined) {
    issues.add(at(path, 'patternMessage'), 'has no pattern to go with');
  }
}

function compile(pattern: unknown): RegExp | null {
  if (!isString(pattern)) return null;
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
}

function regExpError(pattern: string): string {
  try {
    new RegExp(pattern, 'u');
    return 'unknown error';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function checkRange(c: FieldCheck, integer: boolean): void {
  const { field, path, symbols, issues } = c;
  for (const key of ['min', 'max']) {
    if (field[key] !== undefined) checkNumberOrConstant(field[key], at(path, key), symbols, issues, { integer, nonNegative: false });
  }
  const min = numberOf(field.min, symbols);
  const max = numberOf(field.max, symbols);
  if (min !== null && max !== null && min > max) issues.add(at(path, 'min'), `min ${min} is greater than max ${max}`);
  const value = (c.type === 'decimal' || c.type === 'money') && isString(field.default) ? Number(field.default) : field.default;
  if (isFiniteNumber(value)) {
    if (min !== null && value < min) issues.add(at(path, 'default'), `is less than min ${min}`);
    if (max !== null && value > max) issues.add(at(path, 'default'), `is greater than max ${max}`);
  }
}

/** A bound's number, through its constant when it names one. */
function numberOf(value: unknown, symbols: Symbols): number | null {
  const resolved = isRecord(value) && isString(value.$constant) ? symbols.constants.get(value.$constant) : value;
  return isFiniteNumber(resolved) ? resolved : null;
}

/** Precision and scale of a decimal column; `scale` is the field's own (decimal) or its currency's (money). */
function checkDecimalShape(c: FieldCheck, scale: unknown): void {
  const { field, path, issues } = c;
  const { precision } = field;
  if (precision !== undefined && (!isInteger(precision) || precision < 1 || precision > MAX_DECIMAL_PRECISION)) {
    issues.add(at(path, 'precision'), `must be an integer from 1 to ${MAX_DECIMAL_PRECISION}, got ${describeValue(precision)}`);
  }
  if (scale !== undefined && (!isInteger(scale) || scale < 0)) {
    issues.add(at(path, 'scale'), `must be an integer ≥ 0, got ${describeValue(scale)}`);
  }
  const p = isInteger(precision) ? precision : DEFAULT_DECIMAL_DIGITS.precision;
  const s = isInteger(scale) ? scale : DEFAULT_DECIMAL_DIGITS.scale;
  if (s > p && s >= 0 && p >= 1) {
    const theDefault = precision === undefined ? ' (the default)' : '';
    if (c.type === 'money')
      issues.add(at(path, 'precision'), `precision ${p}${theDefault} is less than the currency's ${s} digits after the point`);
    else issues.add(at(path, 'scale'), `scale ${s} is greater than precision ${p}${theDefault}`);
  }
  const value = field.default;
  if (value === undefined) return;
  const match = isString(value) ? /^-?(\d+)(?:\.(\d+))?$/.exec(value) : null;
  if (!match) {
    issues.add(at(path, 'default'), `must be a decimal number written as a string, e.g. "12.50", got ${describeValue(value)}`);
  } else if ((match[2] ?? '').length > s || match[1]!.replace(/^0+(?=\d)/, '').length > p - s) {
    issues.add(at(path, 'default'), `${value} does not fit decimal(${p}, ${s})`);
  }
}

function checkEnum(c: FieldCheck): void {
  const { field, path, issues } = c;
  const values = field.values;
  if (!Array.isArray(values) || values.length === 0) {
    issues.add(at(path, 'values'), 'an enum needs a non-empty list of values');
    return;
  }
  values.forEach((value: unknown, index) => {
    if (!isString(value) || value === '')
      issues.add(at(at(path, 'values'), index), `must be a non-empty string, got ${describeValue(value)}`);
  });
  issues.duplicates(values, at(path, 'values'), 'value');
  if (field.labels !== undefined && issues.record(field.labels, at(path, 'labels'), 'labels')) {
    for (const [key, label] of Object.entries(field.labels)) {
      if (!values.includes(key)) issues.add(at(at(path, 'labels'), key), `"${key}" is not one of the values (${values.join(', ')})`);
      if (!isString(label)) issues.add(at(at(path, 'labels'), key), `must be a string, got ${describeValue(label)}`);
    }
  }
  if (field.colours !== undefined && issues.record(field.colours, at(path, 'colours'), 'colours')) {
    for (const [key, colour] of Object.entries(field.colours)) {
      if (!values.includes(key)) issues.add(at(at(path, 'colours'), key), `"${key}" is not one of the values (${values.join(', ')})`);
      if (!(COLOURS as readonly unknown[]).includes(colour))
        issues.add(at(at(path, 'colours'), key), `unknown colour ${describeValue(colour)} (expected one of ${COLOURS.join(', ')})`);
    }
  }
  if (field.default !== undefined && !values.includes(field.default)) {
    issues.add(at(path, 'default'), `${describeValue(field.default)} is not one of the values (${values.join(', ')})`);
  }
}

function checkReference(c: FieldCheck): void {
  const { field, path, symbols, issues } = c;
  if (!isString(field.to)) issues.add(at(path, 'to'), `a reference needs the name of an entity, got ${describeValue(field.to)}`);
  else if (!symbols.entities.has(field.to)) issues.add(at(path, 'to'), `unknown entity "${field.to}"`);
  if (field.onDelete !== undefined && !ON_DELETE.includes(String(field.onDelete))) {
    issues.add(at(path, 'onDelete'), `unknown onDelete ${describeValue(field.onDelete)} (expected one of ${ON_DELETE.join(', ')})`);
  }
  if (field.onDelete === 'setNull' && field.required === true) {
    issues.add(at(path, 'onDelete'), 'a required reference cannot be set to null; use "restrict" or "cascade"');
  }
  checkOwnRecordDefault(field, path, symbols, issues);
}

/** A many-to-many field: a known entity, and a cap from 1 to MAX_REFERENCES. */
function checkReferences(c: FieldCheck): void {
  const { field, path, symbols, issues } = c;
  if (!isString(field.to)) issues.add(at(path, 'to'), `references need the name of an entity, got ${describeValue(field.to)}`);
  else if (!symbols.entities.has(field.to)) issues.add(at(path, 'to'), `unknown entity "${field.to}"`);
  checkMaxItems(c);
  // A set has no single value to compare: the unique index would be on a column that does not exist.
  if (field.unique === true) issues.add(at(path, 'unique'), 'a references field cannot be unique');
}

/** A set's cap (references, users): from 1 to MAX_REFERENCES, or a constant holding one. */
function checkMaxItems(c: FieldCheck): void {
  const { field, path, symbols, issues } = c;
  const given: unknown = field.maxItems;
  // A constant's name is checked by the walk over every { $constant }; its value here.
  const constant = isConstantRef(given) && isString(given.$constant) ? given.$constant : null;
  if (constant === null || symbols.constants.has(constant)) {
    const max = constant === null ? given : symbols.constants.get(constant);
    const via = constant === null ? '' : ` (constant "${constant}")`;
    if (max !== undefined && (!isInteger(max) || max < 1 || max > MAX_REFERENCES)) {
      issues.add(at(path, 'maxItems'), `must be an integer from 1 to ${MAX_REFERENCES}, got ${describeValue(max)}${via}`);
    }
  }
}

/** A file field's `maxBytes` and `accept`; it holds files, so it has nothing unique to compare. */
function checkFileLimits(c: FieldCheck): void {
  const { field, path, issues } = c;
  checkPositiveCap(c, 'maxBytes', MAX_FILE_BYTES);
  const accept: unknown = field.accept;
  if (accept !== undefined) {
    if (!Array.isArray(accept) || accept.length === 0) {
      issues.add(
        at(path, 'accept'),
        `must be a non-empty list of content types such as "image/*" or "application/pdf", got ${describeValue(accept)}`,
      );
    } else {
      accept.forEach((entry: unknown, i) => {
        if (!isString(entry) || !isAcceptEntry(entry))
          issues.add(
            at(at(path, 'accept'), String(i)),
            `must be a content type such as "image/png" or "image/*" (lower case), got ${describeValue(entry)}`,
          );
      });
    }
  }
  if (field.unique === true) issues.add(at(path, 'unique'), `${withArticle(c.type)} field cannot be unique`);
}

/** A positive whole number up to `max`, or a constant holding one (its name is checked elsewhere). */
function checkPositiveCap(c: FieldCheck, key: 'maxBytes' | 'maxItems', max: number): void {
  const { field, path, symbols, issues } = c;
  const given: unknown = field[key];
  const constant = isConstantRef(given) && isString(given.$constant) ? given.$constant : null;
  if (constant !== null && !symbols.constants.has(constant)) return;
  const value = constant === null ? given : symbols.constants.get(constant);
  const via = constant === null ? '' : ` (constant "${constant}")`;
  if (value !== undefined && (!isInteger(value) || value < 1 || value > max))
    issues.add(at(path, key), `must be a positive whole number up to ${max}, got ${describeValue(value)}${via}`);
}

/** `roles` of a user field: a non-empty list of known roles (the built-in admin always is one). */
function checkHolderRoles(c: FieldCheck): void {
  const { field, path, symbols, issues } = c;
  const roles = field.roles;
  if (roles === undefined) return;
  if (!Array.isArray(roles) || roles.length === 0) {
    issues.add(at(path, 'roles'), `must be a non-empty list of role names, got ${describeValue(roles)}`);
    return;
  }
  roles.forEach((role: unknown, i) => {
    if (!isString(role)) issues.add(at(at(path, 'roles'), i), `must be a role name, got ${describeValue(role)}`);
    else if (refusePublicRole(role, at(at(path, 'roles'), i), issues, 'be chosen as a user')) return;
    else if (role !== ADMIN_ROLE && !symbols.roles.has(role)) {
      issues.add(at(at(path, 'roles'), i), `unknown role "${role}" (roles: ${quoteList(new Set([ADMIN_ROLE, ...symbols.roles]))})`);
    }
  });
}

function isIsoDate(value: unknown): boolean {
  if (!isString(value) || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function isHttpUrl(value: unknown): boolean {
  if (!isString(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
