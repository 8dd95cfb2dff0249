import { toSnakeCase, withArticle } from '../naming';
import { at, describeValue, IDENTIFIER, IDENTIFIER_RULE, isString, type Issues, type Rec, type Symbols } from './context';
import { checkField } from './fields';

const USERS_KEYS = ['fields'];

/** What a user field may be: what an administrator can pick or type, and a scope can compare with. */
export const USER_FIELD_TYPES = ['reference', 'user', 'enum', 'text', 'integer', 'boolean'] as const;

/**
 * Field keys that are fine on a record but mean nothing on a user account, each with the reason
 * given to the spec's author (the other keys are checked by checkField like an entity's).
 */
const REFUSED_KEYS: Readonly<Record<string, string>> = {
  unique: 'user fields cannot be unique (several people share a team or an organization)',
  searchable: 'user fields are not searched (accounts are listed on /admin/users)',
  due: 'user fields have no due times',
  computed: 'administrators set every user field; none is computed',
  writtenBy: 'administrators set user fields (on /admin/users or with the CLI), never calls',
  readOnly: 'administrators set every user field; a read-only one could never be set',
  onDelete: 'a user field is emptied when the record it refers to is deleted (it never blocks nor deletes the account)',
};

/**
 * `users: { fields }`: what the application keeps about each account beyond name, email and
 * roles. Accounts exist before an administrator sets their fields, so a required one needs a
 * default.
 */
export function checkUsers(spec: Rec, symbols: Symbols, issues: Issues): void {
  const users = spec.users;
  if (users === undefined || !issues.record(users, 'users', 'users')) return;
  issues.unknownKeys(users, USERS_KEYS, 'users', 'users');
  const fieldsPath = at('users', 'fields');
  if (users.fields === undefined) {
    issues.add(fieldsPath, 'is required: the fields every user account carries, e.g. { team: { type: "reference", to: "team" } }');
    return;
  }
  if (!issues.record(users.fields, fieldsPath, 'fields')) return;
  const columns = new Map<string, string>();
  for (const [name, field] of Object.entries(users.fields)) {
    const path = at(fieldsPath, name);
    if (!IDENTIFIER.test(name)) issues.add(path, `field names are identifiers: ${IDENTIFIER_RULE}`);
    else if (name === 'id') issues.add(path, '"id" is reserved: { actor: "id" } is the user\'s own id');
    // The column is f_<snake_case> (build.ts, userFieldColumn): names equal in snake case collide.
    const column = toSnakeCase(name);
    const other = columns.get(column);
    if (other !== undefined) issues.add(path, `would share its column with user field "${other}"`);
    columns.set(column, name);
    checkUserField(field, path, symbols, issues);
  }
}

function checkUserField(field: unknown, path: string, symbols: Symbols, issues: Issues): void {
  if (!issues.record(field, path, 'a field')) return;
  const type = field.type;
  if (isString(type) && !(USER_FIELD_TYPES as readonly string[]).includes(type)) {
    issues.add(at(path, 'type'), `${withArticle(type)} field cannot be a user field (user fields are ${USER_FIELD_TYPES.join(', ')})`);
    return;
  }
  checkField(field, path, symbols, issues);
  for (const [key, why] of Object.entries(REFUSED_KEYS)) {
    if (field[key] !== undefined) issues.add(at(path, key), why);
  }
  if (type === 'user' && field.default !== undefined) {
    issues.add(at(path, 'default'), `a user field of an account has no default user, got ${describeValue(field.default)}`);
  }
  if (field.required === true && field.default === undefined) {
    issues.add(at(path, 'required'), 'accounts exist before an administrator sets their fields: a required user field needs a default');
  }
}
