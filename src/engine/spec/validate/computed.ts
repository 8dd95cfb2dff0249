import {
  at,
  describeValue,
  isConstantRef,
  isFiniteNumber,
  isInteger,
  isRecord,
  isString,
  quoteList,
  type EntityInfo,
  type Issues,
  type Rec,
  type Symbols,
} from './context';
import { currencyOf } from './money';

/** The operators of arithmetic, and how many terms each takes (null: two or more). */
const OPERATORS: Readonly<Record<string, 2 | null>> = { add: null, subtract: 2, multiply: null, divide: 2 };
const UNITS = ['minutes', 'hours', 'days', 'workingDays'];
const COMPUTED_TYPES: Readonly<Record<string, string>> = {
  integer: 'arithmetic',
  decimal: 'arithmetic',
  money: 'arithmetic',
  datetime: 'a time moved',
  date: 'a time moved',
  text: 'a slug',
};

interface ComputedCheck {
  readonly name: string;
  /** For a money field: its currency, which every money input must share (null: not money, or reported). */
  readonly currency: string | null;
  readonly info: EntityInfo;
  readonly symbols: Symbols;
  readonly issues: Issues;
}

/**
 * The `computed` of every field: arithmetic into an integer or decimal field (integer only from
 * integers, without division), a datetime or date moved by a duration, a slug of a text field.
 * Inputs are stored fields of the same record, never computed ones (so the order of computing
 * never matters); the engine writes the value, so it takes no default and cannot be required.
 */
export function checkComputedFields(entity: Rec, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  if (!isRecord(entity.fields)) return;
  for (const [name, field] of Object.entries(entity.fields)) {
    if (!isRecord(field) || field.computed === undefined) continue;
    const fieldPath = at(at(path, 'fields'), name);
    const computedPath = at(fieldPath, 'computed');
    const c: ComputedCheck = { name, currency: currencyOf(field, symbols), info, symbols, issues };
    if (field.default !== undefined) issues.add(at(fieldPath, 'default'), 'a computed field takes no default: the engine writes it');
    if (field.required === true)
      issues.add(at(fieldPath, 'required'), 'a computed field cannot be required: it is empty while an input is');
    if (field.due !== undefined) issues.add(at(fieldPath, 'due'), 'a field is either a due time or computed, not both');
    if (!issues.record(field.computed, computedPath, 'a computation')) continue;
    const kind = kindOf(field.computed);
    const type = String(field.type);
    if (kind === null) {
      issues.add(
        computedPath,
        `expected one of { add | subtract | multiply | divide: [...] }, { from, plus | minus: { minutes | hours | days | workingDays } } or { slug }, got keys ${quoteList(Object.keys(field.computed))}`,
      );
    } else if (COMPUTED_TYPES[type] !== kind) {
      issues.add(
        computedPath,
        `${name} is ${type === 'integer' ? 'an' : 'a'} ${type} field, so it cannot be computed as ${kind} (${expectedFor(type)})`,
      );
    } else if (kind === 'arithmetic') {
      checkTerm(field.computed, computedPath, type === 'integer', c);
    } else if (kind === 'a time moved') {
      checkShift(field.computed, computedPath, type, c);
    } else {
      checkSlug(field.computed, computedPath, c);
    }
  }
}

function kindOf(computed: Rec): string | null {
  if (Object.keys(OPERATORS).some((op) => op in computed)) return 'arithmetic';
  if ('from' in computed) return 'a time moved';
  if ('slug' in computed) return 'a slug';
  return null;
}

function expectedFor(type: string): string {
  if (type === 'integer' || type === 'decimal' || type === 'money') return 'a number field is computed by arithmetic';
  if (type === 'datetime' || type === 'date') return `a ${type} field is computed as { from, plus | minus }`;
  if (type === 'text') return 'a text field is computed as { slug }';
  return `a ${type} field cannot be computed; fields that can: integer, decimal, money, datetime, date, text`;
}

/** One term of arithmetic; `integer`: the result goes into an integer field. */
function checkTerm(term: unknown, path: string, integer: boolean, c: ComputedCheck): void {
  if (isFiniteNumber(term)) {
    if (integer && !isInteger(term)) c.issues.add(path, `${term} is not a whole number, and ${c.name} is an integer field`);
    return;
  }
  if (!isRecord(term)) {
    c.issues.add(path, `must be a number, { $constant }, { field } or arithmetic, got ${describeValue(term)}`);
    return;
  }
  if (isConstantRef(term)) return checkNumberConstant(term.$constant, at(path, '$constant'), integer, c);
  if ('field' in term) return checkNumberField(term.field, at(path, 'field'), integer, c);
  const operators = Object.keys(term);
  const op = operators[0];
  if (operators.length !== 1 || op === undefined || !(op in OPERATORS)) {
    c.issues.add(path, `arithmetic takes exactly one of ${quoteList(Object.keys(OPERATORS))}, got ${quoteList(operators)}`);
    return;
  }
  const opPath = at(path, op);
  if (op === 'divide' && integer) {
    c.issues.add(opPath, `division gives fractions, and ${c.name} is an integer field: make it a decimal field`);
  }
  const terms = term[op];
  const arity = OPERATORS[op];
  if (!Array.isArray(terms) || (arity === null ? terms.length < 2 : terms.length !== arity)) {
    c.issues.add(opPath, `${op} takes a list of ${arity === null ? 'two or more' : 'exactly two'} terms, got ${describeValue(terms)}`);
    return;
  }
  terms.forEach((t: unknown, i) => checkTerm(t, at(opPath, i), integer, c));
}

function checkNumberConstant(name: unknown, path: string, integer: boolean, c: ComputedCheck, why = `${c.name} is an integer field`): void {
  if (!isString(name) || !c.symbols.constants.has(name)) {
    c.issues.add(path, `unknown constant ${describeValue(name)} (constants: ${quoteList(c.symbols.constants.keys())})`);
    return;
  }
  const value = c.symbols.constants.get(name);
  if (!isFiniteNumber(value)) c.issues.add(path, `the constant "${name}" is ${describeValue(value)}, not a number`);
  else if (integer && !isInteger(value)) c.issues.add(path, `the constant "${name}" is ${value}, not a whole number, and ${why}`);
}

/** A stored field of the record, of one of `types`; returns its type, or null when reported. */
function inputField(name: unknown, path: string, types: readonly string[], c: ComputedCheck): string | null {
  const candidates = [...c.info.fields].filter(([n, f]) => n !== c.name && types.includes(String(f.type)) && f.computed === undefined);
  const field = isString(name) ? c.info.fields.get(name) : undefined;
  if (name === c.name) c.issues.add(path, `${c.name} cannot be computed from itself`);
  else if (field && field.computed !== undefined) c.issues.add(path, `"${String(name)}" is itself computed; compute from stored fields`);
  else if (!field || !types.includes(String(field.type)))
    c.issues.add(
      path,
      `${describeValue(name)} is not ${orList(types)} field of ${c.info.name} (fields that are: ${quoteList(candidates.map(([n]) => n))})`,
    );
  else return String(field.type);
  return null;
}

/** "integer", "integer or decimal", "integer, decimal or money". */
function orList(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

function checkNumberField(name: unknown, path: string, integer: boolean, c: ComputedCheck): void {
  const type = inputField(name, path, integer ? ['integer'] : ['integer', 'decimal', 'money'], c);
  const given = isString(name) ? c.info.fields.get(name) : undefined;
  if (type === null && integer && (given?.type === 'decimal' || given?.type === 'money')) {
    c.issues.add(
      path,
      `"${String(name)}" is a ${String(given.type)} field, and ${c.name} is an integer field: make ${c.name} a decimal field`,
    );
  }
  // Amounts in two currencies do not add up to either: a money field computes from its own currency only.
  const inputCurrency = currencyOf(given, c.symbols);
  if (type === 'money' && c.currency !== null && inputCurrency !== null && inputCurrency !== c.currency) {
    c.issues.add(path, `"${String(name)}" is money in ${inputCurrency}, and ${c.name} is money in ${c.currency}`);
  }
}

function checkShift(shift: Rec, path: string, type: string, c: ComputedCheck): void {
  c.issues.unknownKeys(shift, ['from', 'plus', 'minus'], path, 'a time moved');
  inputField(shift.from, at(path, 'from'), [type], c);
  const directions = ['plus', 'minus'].filter((d) => d in shift);
  const direction = directions[0];
  if (directions.length !== 1 || direction === undefined) {
    c.issues.add(path, 'takes exactly one of plus and minus: { minutes | hours | days | workingDays }');
    return;
  }
  const duration = shift[direction];
  const durationPath = at(path, direction);
  if (!c.issues.record(duration, durationPath, 'a duration')) return;
  const units = Object.keys(duration);
  const unit = units[0];
  if (units.length !== 1 || unit === undefined || !UNITS.includes(unit)) {
    c.issues.add(durationPath, `a duration is exactly one of ${quoteList(UNITS)}, got ${quoteList(units)}`);
    return;
  }
  if (type === 'date' && unit !== 'days' && unit !== 'workingDays')
    c.issues.add(at(durationPath, unit), `a date moves by whole days: use { days } or { workingDays }`);
  const amount = duration[unit];
  const amountPath = at(durationPath, unit);
  const whole = type === 'date' || unit === 'workingDays';
  if (isRecord(amount) && 'field' in amount) inputField(amount.field, at(amountPath, 'field'), ['integer'], c);
  else if (isRecord(amount) && isConstantRef(amount))
    checkNumberConstant(
      amount.$constant,
      at(amountPath, '$constant'),
      whole,
      c,
      `${type === 'date' ? 'a date moves' : 'working days count'} by whole days`,
    );
  else if (!isFiniteNumber(amount) || (whole && !isInteger(amount)))
    c.issues.add(
      amountPath,
      `must be ${whole ? 'a whole number' : 'a number'}, { $constant } or { field } (an integer field), got ${describeValue(amount)}`,
    );
}

function checkSlug(slug: Rec, path: string, c: ComputedCheck): void {
  c.issues.unknownKeys(slug, ['slug'], path, 'a slug');
  inputField(slug.slug, at(path, 'slug'), ['text'], c);
}
