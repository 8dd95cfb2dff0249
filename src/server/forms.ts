import { plainDefault } from '@/engine/spec/field-default';
import { isVisitor } from '@/engine/access/visitor';
import type { RecordValue } from '@/engine/ground/record-value';
import type { Actor } from '@/engine/ground/actor';
import type { FieldModel } from '@/engine/spec/model';
import { fromLocalInput, toLocalInput } from '@/engine/time/zone';

/*
 * Between HTML form values (strings) and record values.
 *
 * Booleans: the form posts a hidden "false" and then, when checked, the checkbox's "true";
 * the LAST value of a name wins, so an unchecked box arrives as "false", not as nothing.
 *
 * Date-times: <input type="datetime-local"> has no zone; the browser sends "2025-03-01T14:30".
 * Ninefold reads that in the viewer's zone (src/server/viewer-zone.ts; the form names it beside
 * the input) and sends ops a full ISO string in UTC; stored values are shown back in the input in
 * that zone too. So a value round-trips unchanged whatever the zone of the server or browser.
 * (The API and CSV imports read a zone-less time as UTC: src/engine/rules/field-schema.ts.)
 */

/** "2025-03-01T14:30" read in `zone` → ISO 8601 in UTC; anything else is left for ops to judge. */
export function fromDateTimeLocal(value: string, zone: string): string {
  return fromLocalInput(value, zone)?.toISOString() ?? value;
}

/** A time as datetime-local shows it in `zone`: minutes, or seconds when it has them. */
export function toDateTimeLocal(value: Date, zone: string): string {
  return toLocalInput(value, zone);
}

/** The string an input shows for a stored value; date-times in the viewer's `zone`. */
export function toFormValue(field: FieldModel, value: RecordValue | undefined, zone: string): string {
  // A references field's set: its ids joined with commas, as the form posts them back.
  if (Array.isArray(value)) return value.join(',');
  if (value === null || value === undefined) return field.type === 'boolean' ? 'false' : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return field.type === 'date' ? value.toISOString().slice(0, 10) : toDateTimeLocal(value, zone);
  if (field.type === 'datetime' && typeof value === 'string') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : toDateTimeLocal(date, zone);
  }
  return String(value);
}

/**
 * The value a new record's form starts with, from the spec's default, times in the viewer's
 * `zone`; `own`: the actor's own records that references default to (ops.createDefaults).
 */
export function defaultFormValue(
  field: FieldModel,
  actor: Actor,
  now: Date,
  zone: string,
  own: Readonly<Record<string, number>> = {},
): string {
  const spec = field.spec;
  switch (spec.type) {
    case 'boolean':
      return plainDefault(field) === true ? 'true' : 'false';
    case 'user':
      // A visitor has no account to default to; nor does one who may not hold the field (an agent filling a customer's requester).
      return spec.default === 'actor' && !isVisitor(actor) && (!field.holderRoles || field.holderRoles.some((r) => actor.roles.includes(r)))
        ? String(actor.userId)
        : '';
    case 'datetime':
      return spec.default === 'now' ? toDateTimeLocal(new Date(Math.floor(now.getTime() / 60_000) * 60_000), zone) : '';
    case 'reference':
      return Object.hasOwn(own, field.name) ? String(own[field.name]) : '';
    case 'references':
    case 'users':
      return '';
    default: {
      const value = plainDefault(field);
      return value === undefined ? '' : String(value);
    }
  }
}

export interface FormInput {
  /** What ops receives: strings by field name (date-times as ISO). */
  readonly input: Record<string, string>;
  /** What the form shows again when the input is refused: exactly what was typed. */
  readonly values: Record<string, string>;
}

/**
 * The posted values of `fields` as strings, date-times read in the viewer's `zone`. A field the
 * form did not post is left out (ops keeps the stored value on update); other names are ignored.
 */
export function readFormInput(formData: FormData, fields: readonly FieldModel[], zone: string): FormInput {
  const input: Record<string, string> = {};
  const values: Record<string, string> = {};
  for (const field of fields) {
    const posted = formData.getAll(field.name).filter((v): v is string => typeof v === 'string');
    const last = posted.at(-1);
    if (last === undefined) continue;
    // A set posts one value per chosen record or user, after an empty one that stands for
    // "the field was in the form" (so that choosing none empties the set): ids joined by commas.
    const raw = field.joinTable !== undefined ? posted.filter((v) => v !== '').join(',') : last;
    values[field.name] = raw;
    input[field.name] = field.type === 'datetime' ? fromDateTimeLocal(raw, zone) : raw;
  }
  return { input, values };
}

/** A posted string read as a positive integer (ids, versions); null when it is not one. */
export function positiveInteger(value: FormDataEntryValue | string | null | undefined): number | null {
  if (typeof value !== 'string' || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : null;
}

/** A posted string read as an integer ≥ 0 (record versions); null when it is not one. */
export function nonNegativeInteger(value: FormDataEntryValue | string | null | undefined): number | null {
  if (value === '0') return 0;
  return positiveInteger(value);
}
