import { plainDefault } from '../spec/field-default';
import { NinefoldError, type FieldError } from '../errors/ninefold-error';
import type { RecordValue } from '../ground/record-value';
import { fieldSchema, firstIssue, issueCode, issueMessage } from '../rules/field-schema';
import type { AppModel, FieldModel } from '../spec/model';
import { USER_TABLE } from '../store/schema/desired';
import type { DynamicDatabase } from '../store/types';
import { holderRolesMessage, holdsFieldRole } from './people';

/**
 * The spec's user fields (`users.fields`, columns `f_<snake>` on nf_user): what the actor of a
 * request carries for conditions such as `{ actor: 'team' }`, and what administrators set.
 */

/** What identity needs of the model to store user fields: the fields, and the tables they refer to. */
export type UserFieldsModel = Pick<AppModel, 'users' | 'entitiesByName' | 'roles' | 'constants'>;

/** The user-field columns to select with an account (prefix with the table's alias when joined). */
export function userFieldColumns(model: UserFieldsModel | undefined, alias?: string): string[] {
  return (model?.users.fields ?? []).map((f) => (alias ? `${alias}.${f.column}` : f.column));
}

/** A row's user-field values by field name: ids as numbers (bigint columns come back as text). */
export function userFieldValues(
  model: UserFieldsModel | undefined,
  row: Readonly<Record<string, unknown>>,
): Readonly<Record<string, RecordValue>> {
  const values: Record<string, RecordValue> = {};
  for (const field of model?.users.fields ?? []) {
    const raw = row[field.column];
    values[field.name] =
      raw === null || raw === undefined
        ? null
        : field.type === 'reference' || field.type === 'user' || field.type === 'integer'
          ? Number(raw)
          : (raw as RecordValue);
  }
  return values;
}

/** The columns a new account starts with: each field's default, where the spec gives one. */
export function userFieldDefaults(model: UserFieldsModel | undefined): Record<string, RecordValue> {
  const columns: Record<string, RecordValue> = {};
  for (const field of model?.users.fields ?? []) {
    // Constants resolved in the model (spec/field-default.ts).
    const value = plainDefault(field);
    if (value !== undefined) columns[field.column] = value;
  }
  return columns;
}

function invalid(fieldErrors: FieldError[]): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', fieldErrors.map((e) => e.message).join(' '), { fieldErrors });
}

/**
 * Parses values given by field name (from a form, the CLI or JSON: strings or typed values; ""
 * or null clears) into columns of nf_user, with the field rules of the spec, and checks that the
 * records and users they name exist (a user field with `roles`: that the user holds one).
 * VALIDATION_FAILED with one message per field otherwise; an unknown name is refused too.
 */
export async function parseUserFields(
  db: DynamicDatabase,
  model: UserFieldsModel | undefined,
  values: Readonly<Record<string, unknown>>,
): Promise<Record<string, RecordValue>> {
  const byName = model?.users.fieldsByName ?? {};
  const known = Object.keys(byName);
  const errors: FieldError[] = [];
  const parsed: { field: FieldModel; value: RecordValue }[] = [];
  for (const [name, raw] of Object.entries(values)) {
    const field = Object.hasOwn(byName, name) ? byName[name] : undefined;
    if (!field) {
      errors.push({
        field: name,
        code: 'unknown_field',
        message: `"${name}" is not a user field (user fields: ${known.length ? known.join(', ') : 'none'}).`,
      });
      continue;
    }
    const result = fieldSchema(field).safeParse(raw);
    if (result.success) parsed.push({ field, value: result.data as RecordValue });
    else {
      const issue = firstIssue(result.error);
      errors.push({ field: name, code: issueCode(issue), message: issueMessage(issue, field) });
    }
  }
  if (model) {
    for (const { field, value } of parsed) {
      if (typeof value !== 'number') continue;
      const refusal = await missingTarget(db, model, field, value);
      if (refusal) errors.push(refusal);
    }
  }
  if (errors.length) {
    // In the spec's order of the fields, names it does not know last, whichever check found them.
    const order = (name: string) => (Object.hasOwn(byName, name) ? known.indexOf(name) : known.length);
    throw invalid(errors.sort((a, b) => order(a.field) - order(b.field)));
  }
  return Object.fromEntries(parsed.map(({ field, value }) => [field.column, value]));
}

/** Why the id of a reference or user field names nothing it may hold, or null when it does. */
async function missingTarget(db: DynamicDatabase, model: UserFieldsModel, field: FieldModel, id: number): Promise<FieldError | null> {
  if (field.type === 'user') {
    const holds = holdsFieldRole(field);
    const query = db.selectFrom(USER_TABLE).select('id').where('id', '=', id);
    if (await (holds ? query.where(holds) : query).executeTakeFirst()) return null;
    return field.holderRoles
      ? { field: field.name, code: 'user_role', message: holderRolesMessage(model, field) }
      : { field: field.name, code: 'unknown_reference', message: `${field.label}: no user #${id}.` };
  }
  if (field.type !== 'reference') return null;
  const target = model.entitiesByName[field.referenceTo ?? ''];
  if (!target) return null;
  // Administrators set user fields: any record that exists will do, whatever its scopes.
  const row = await db.selectFrom(target.table).select('id').where('id', '=', id).executeTakeFirst();
  return row ? null : { field: field.name, code: 'unknown_reference', message: `${field.label}: no record #${id}.` };
}
