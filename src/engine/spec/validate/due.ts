import { checkCondition } from './conditions';
import {
  at,
  describeValue,
  isConstantRef,
  isFiniteNumber,
  isRecord,
  isString,
  quoteList,
  type EntityInfo,
  type Issues,
  type Rec,
  type Symbols,
} from './context';

const DUE_KEYS = ['from', 'hours', 'by', 'doneWhen'];
/** System columns a due time may count from. */
const SYSTEM_FROM = ['createdAt', 'updatedAt'];

/**
 * The `due` of every datetime field: counted from a datetime of the record, by a number of
 * hours that is a number or a constant (a number, or hours per value of the enum field `by`,
 * covering its values exactly), with an optional condition under which the clock has stopped.
 */
export function checkDueTimes(entity: Rec, info: EntityInfo, path: string, symbols: Symbols, issues: Issues): void {
  if (!isRecord(entity.fields)) return;
  for (const [name, field] of Object.entries(entity.fields)) {
    if (!isRecord(field) || field.type !== 'datetime' || field.due === undefined) continue;
    const fieldPath = at(at(path, 'fields'), name);
    checkDue(field.due, name, at(fieldPath, 'due'), info, symbols, issues);
    // The engine writes the value: nothing else may give it one.
    if (field.default !== undefined) issues.add(at(fieldPath, 'default'), 'a due time is computed: it takes no default');
    if (field.required === true)
      issues.add(at(fieldPath, 'required'), 'a due time is computed (empty while its "from" or "by" is): it cannot be required');
  }
}

function checkDue(due: unknown, name: string, path: string, info: EntityInfo, symbols: Symbols, issues: Issues): void {
  if (!issues.record(due, path, 'a due time')) return;
  issues.unknownKeys(due, DUE_KEYS, path, 'a due time');
  checkFrom(due.from, name, at(path, 'from'), info, issues);
  const by = checkBy(due.by, at(path, 'by'), info, issues);
  checkHours(due, by, at(path, 'hours'), at(path, 'by'), symbols, issues);
  // Whether a record is done is read from its own row (lists, overdue marks): no paths there.
  if (due.doneWhen !== undefined) checkCondition(due.doneWhen, at(path, 'doneWhen'), info, symbols, issues, { paths: false });
}

function checkFrom(from: unknown, name: string, path: string, info: EntityInfo, issues: Issues): void {
  const datetimes = [...SYSTEM_FROM, ...[...info.fields].filter(([n, f]) => f.type === 'datetime' && n !== name).map(([n]) => n)];
  if (from === undefined) issues.add(path, `is required: the datetime the time is counted from (${quoteList(datetimes)})`);
  else if (from === name) issues.add(path, 'a due time cannot be counted from itself');
  else if (!isString(from) || !datetimes.includes(from)) {
    issues.add(path, `${describeValue(from)} is not a datetime of ${info.name} (datetimes: ${quoteList(datetimes)})`);
  } else if (isRecord(info.fields.get(from)?.due)) {
    issues.add(path, `"${from}" is itself a due time; count from a stored datetime`);
  }
}

/** The values of the enum field `by`, when it is one. */
function checkBy(by: unknown, path: string, info: EntityInfo, issues: Issues): readonly string[] | null {
  if (by === undefined) return null;
  const enums = [...info.fields].filter(([, f]) => f.type === 'enum').map(([n]) => n);
  const field = isString(by) ? info.fields.get(by) : undefined;
  if (!field || field.type !== 'enum') {
    issues.add(path, `${describeValue(by)} is not an enum field of ${info.name} (enum fields: ${quoteList(enums)})`);
    return null;
  }
  return Array.isArray(field.values) ? field.values.filter(isString) : null;
}

function checkHours(due: Rec, byValues: readonly string[] | null, path: string, byPath: string, symbols: Symbols, issues: Issues): void {
  const hours = due.hours;
  if (hours === undefined) {
    issues.add(path, 'is required: a number of hours, or { $constant }');
    return;
  }
  let value: unknown = hours;
  let via = '';
  if (isConstantRef(hours)) {
    if (!isString(hours.$constant) || !symbols.constants.has(hours.$constant)) {
      issues.add(
        at(path, '$constant'),
        `unknown constant ${describeValue(hours.$constant)} (constants: ${quoteList(symbols.constants.keys())})`,
      );
      return;
    }
    value = symbols.constants.get(hours.$constant);
    via = ` (constant "${hours.$constant}")`;
  }
  if (isFiniteNumber(value)) {
    if (due.by !== undefined) issues.add(byPath, `"by" picks hours from a map per value, but the hours are one number${via}`);
    return;
  }
  if (!isRecord(value) || !isConstantRef(hours)) {
    issues.add(path, `must be a number of hours or { $constant } naming a number or hours per value, got ${describeValue(value)}${via}`);
    return;
  }
  checkHoursMap(value, due.by, byValues, path, via, issues);
}

/** Hours per value: one non-negative number for each value of `by`, and no other key. */
function checkHoursMap(map: Rec, by: unknown, byValues: readonly string[] | null, path: string, via: string, issues: Issues): void {
  if (by === undefined) {
    issues.add(path, `hours per value${via} need "by": the enum field whose value picks them`);
    return;
  }
  for (const [key, hours] of Object.entries(map)) {
    if (!isFiniteNumber(hours)) issues.add(path, `the hours for "${key}"${via} must be a number, got ${describeValue(hours)}`);
  }
  if (!byValues) return;
  const missing = byValues.filter((v) => !Object.hasOwn(map, v));
  const extra = Object.keys(map).filter((k) => !byValues.includes(k));
  if (missing.length > 0) issues.add(path, `no hours${via} for ${quoteList(missing)} of "${String(by)}"`);
  if (extra.length > 0)
    issues.add(
      path,
      `hours${via} for ${quoteList(extra)}, which ${extra.length === 1 ? 'is not a value' : 'are not values'} of "${String(by)}" (values: ${quoteList(byValues)})`,
    );
}
