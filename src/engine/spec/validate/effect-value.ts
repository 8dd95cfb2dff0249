import { describeValue, isInteger, isString, type Issues, type Rec } from './context';
import { withArticle } from '../naming';

/** The value an effect writes must fit the field: 'now' for datetimes, 'actor' for users. */
export function checkEffectValue(value: unknown, field: Rec, path: string, name: string, issues: Issues): void {
  const type = field.type;
  // A set is written whole by forms, the API and imports; an effect has no one value for it.
  if (type === 'users') {
    issues.add(path, `"${name}" holds many users: an effect cannot set it`);
    return;
  }
  if (value === null) {
    if (field.required === true) issues.add(path, `cannot clear the required field "${name}"`);
    return;
  }
  if (value === 'now' && type !== 'datetime') {
    issues.add(path, `"now" is the current time and only fits a datetime field; "${name}" is ${withArticle(String(type))} field`);
    return;
  }
  if (value === 'actor' && type !== 'user') {
    issues.add(path, `"actor" is the signed-in user and only fits a user field; "${name}" is ${withArticle(String(type))} field`);
    return;
  }
  const expected = expectedEffectValue(field, value);
  if (expected) issues.add(path, `${describeValue(value)} does not fit the ${String(type)} field "${name}" (expected ${expected})`);
}

/** What the field accepts, when `value` is not it; null when it fits. */
function expectedEffectValue(field: Rec, value: unknown): string | null {
  switch (field.type) {
    case 'datetime':
      return value === 'now' ? null : '"now" or null';
    case 'user':
      return value === 'actor' ? null : '"actor" or null';
    case 'integer':
    case 'reference':
      return isInteger(value) ? null : 'an integer';
    case 'decimal':
    case 'money':
      return typeof value === 'number' || (isString(value) && /^-?\d+(\.\d+)?$/.test(value)) ? null : 'a decimal number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'enum': {
      const values = Array.isArray(field.values) ? field.values.filter(isString) : [];
      return isString(value) && values.includes(value) ? null : `one of ${values.join(', ')}`;
    }
    default:
      return isString(value) ? null : 'a string';
  }
}
