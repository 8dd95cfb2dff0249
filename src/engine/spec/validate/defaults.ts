import type { FieldType } from '../types';
import { isDecimalType } from '../field-numbers';
import { at, describeValue, isConstantRef, isRecord, isString, quoteList, type Issues, type Rec, type Symbols } from './context';

/** Field types whose default may name a constant: those whose default is a plain value. */
const CONSTANT_DEFAULT_TYPES: readonly FieldType[] = [
  'text',
  'markdown',
  'integer',
  'decimal',
  'money',
  'boolean',
  'enum',
  'date',
  'email',
  'url',
];

/**
 * The field with a `default: { $constant }` replaced by the constant's value, so that the field's
 * own default check says whether the value fits (an enum's value, an integer...). A constant that
 * is unknown, or a type whose default is not a plain value, is reported here and the default left out.
 */
export function withConstantDefault(field: Rec, type: FieldType, path: string, symbols: Symbols, issues: Issues): Rec {
  const value = field.default;
  if (!isConstantRef(value)) return field;
  const { default: _constantRef, ...withoutDefault } = field;
  const defaultPath = at(path, 'default');
  if (!CONSTANT_DEFAULT_TYPES.includes(type)) {
    issues.add(defaultPath, `a ${type} field cannot default to a constant (types that can: ${quoteList(CONSTANT_DEFAULT_TYPES)})`);
    return withoutDefault;
  }
  const name = value.$constant;
  if (!isString(name) || !symbols.constants.has(name)) {
    issues.add(at(defaultPath, '$constant'), `unknown constant ${describeValue(name)} (constants: ${quoteList(symbols.constants.keys())})`);
    return withoutDefault;
  }
  const resolved = symbols.constants.get(name);
  // A decimal's (or money's) default is written as a string ("12.50"); a numeric constant stands for it.
  const asDefault = isDecimalType(type) && typeof resolved === 'number' ? String(resolved) : resolved;
  return { ...withoutDefault, default: asDefault };
}

/**
 * A reference's `default: { own: 'account' }`: `account` must be a user field of the referenced
 * entity, the record whose `account` is the actor being the default.
 */
export function checkOwnRecordDefault(field: Rec, path: string, symbols: Symbols, issues: Issues): void {
  const value = field.default;
  if (value === undefined) return;
  const defaultPath = at(path, 'default');
  if (!isRecord(value) || Object.keys(value).join() !== 'own') {
    issues.add(
      defaultPath,
      `a reference defaults only to { own: '<user field of ${describeTarget(field)}>' }, got ${describeValue(value)}`,
    );
    return;
  }
  const target = isString(field.to) ? symbols.entities.get(field.to) : undefined;
  if (!target) return; // the unknown entity is reported with `to`
  const userFields = [...target.fields].filter(([, f]) => f.type === 'user').map(([n]) => n);
  const own = value.own;
  if (!isString(own) || !userFields.includes(own)) {
    issues.add(
      at(defaultPath, 'own'),
      `${describeValue(own)} is not a user field of ${target.name} (user fields: ${quoteList(userFields)}): the default is the ${target.name} whose user field is the actor`,
    );
  }
}

function describeTarget(field: Rec): string {
  return isString(field.to) ? field.to : 'the referenced entity';
}
