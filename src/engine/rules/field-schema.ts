import { z } from 'zod';
import { isSetField, MAX_REFERENCES } from '../spec/join-fields';
import type { FieldModel } from '../spec/model';
import { digitsOf } from '../spec/field-numbers';
import { beforeFirst } from '../spec/naming';
import { FIELD_MESSAGE_KINDS, type FieldMessageKind } from '../spec/types';
import { HOSTNAME } from './hostname';

/**
 * One zod schema per field: it accepts what a form sends (strings) or what JSON sends (typed
 * values) and yields the value stored in the database, or an issue with a message for the user.
 * The same schemas can be shipped to the browser for feedback as the user types.
 */

/** A references field's value is the set of ids, ascending and without repeats. */
export type StoredValue = string | number | boolean | Date | readonly number[] | null;

const DECIMAL = /^-?\d+(\.\d+)?$/;
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
/** YYYY-MM-DDTHH:MM[:SS[.fraction]] with an optional zone (Z, +HH:MM or +HHMM). */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** "" and absent mean "no value"; everything else is left for the schema to judge. */
function emptyToNull(raw: unknown): unknown {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string' && raw.trim() === '') return null;
  return raw;
}

function toNumber(raw: unknown): unknown {
  if (typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw)) return Number(raw);
  return raw;
}

function toBoolean(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const v = raw.toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(v)) return true;
  if (['off', 'false', '0', 'no'].includes(v)) return false;
  return raw;
}

/** The days of a month (1 to 12) of a year. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * A datetime without a zone (what datetime-local inputs send) is read as UTC. Every part must
 * be in range: JavaScript's Date would silently roll 2030-02-30 over to March 2.
 */
function toDate(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const match = DATETIME.exec(raw);
  if (!match) return raw;
  // The date, hour and minute groups are not optional: they are there whenever the pattern matched.
  const [, y, mo, d, h, mi, s = '0', fraction = '', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return raw;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const zoneHours = Number(zone.slice(1, 3));
    const zoneMinutes = Number(zone.slice(-2));
    if (zoneHours > 23 || zoneMinutes > 59) return raw;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  return date;
}

/** What a declared range says about itself in a message: "between 1 and 5", "at least 1", "at most 5". */
function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max}`;
}

/**
 * A number's declared `min`/`max`, as two checks with the codes the spec's `messages` are keyed
 * by (too_small, too_big), so a spec's own words replace the default message.
 */
function withinRange<T>(
  schema: z.ZodType<T>,
  numberOf: (value: T) => number,
  label: string,
  min: number | undefined,
  max: number | undefined,
): z.ZodType<T> {
  if (min === undefined && max === undefined) return schema;
  const error = `${label} must be ${rangeText(min, max)}.`;
  let ranged = schema;
  if (min !== undefined) ranged = ranged.refine((v) => numberOf(v) >= min, { error, params: { code: 'too_small' } });
  if (max !== undefined) ranged = ranged.refine((v) => numberOf(v) <= max, { error, params: { code: 'too_big' } });
  return ranged;
}

/** Too many digits after the point: a decimal's scale, or a currency's minor unit (JPY has none). */
function fractionError(field: FieldModel, scale: number): string {
  if (field.currency === undefined) return `${field.label} can have at most ${scale} decimal places.`;
  return scale === 0
    ? `${field.label} must be a whole amount of ${field.currency}.`
    : `${field.label} can have at most ${scale} decimal places (${field.currency}).`;
}

/** "\r\n" and a lone "\r" as "\n". */
export function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function valueSchema(field: FieldModel): z.ZodType<StoredValue> {
  const s = field.spec;
  const label = field.label;
  switch (s.type) {
    case 'text':
    case 'markdown': {
      // Line breaks are stored as "\n" whatever the door sent (a form posts "\r\n"): one value, one length, no false change.
      let schema = z.string({ error: `${label} must be text.` }).overwrite(normalizeLineBreaks);
      // Lengths count characters (code points), as people and JSON Schema do, not UTF-16 units.
      const { minLength, maxLength } = s;
      if (minLength !== undefined)
        schema = schema.refine((v) => characters(v) >= minLength, {
          error: `${label} must be at least ${minLength} characters.`,
          params: { code: 'too_small' },
        });
      if (maxLength !== undefined)
        schema = schema.refine((v) => characters(v) <= maxLength, {
          error: `${label} must be at most ${maxLength} characters.`,
          params: { code: 'too_big' },
        });
      if (s.type === 'text' && s.pattern)
        schema = schema.regex(new RegExp(s.pattern), { error: s.patternMessage ?? `${label} has the wrong format.` });
      if (s.type === 'text' && s.format === 'hostname')
        schema = schema.regex(HOSTNAME, { error: `${label} must be a host name such as example.com.` });
      return schema;
    }
    case 'email':
      return z.email({ error: `${label} must be an email address.` }).max(320, { error: `${label} is too long.` });
    case 'url':
      return (
        z
          .url({ protocol: /^https?$/, error: `${label} must be a web address starting with http:// or https://.` })
          .max(2048, { error: `${label} is too long.` })
          // What RFC 3986 allows as written: no spaces, no raw non-ASCII, only well-formed %-escapes.
          .refine((v) => URI_CHARACTERS.test(v) && !BAD_ESCAPE.test(v), {
            error: `${label} must be a web address without spaces or unencoded characters.`,
          })
      );
    case 'integer': {
      const { min, max } = field.bounds ?? {};
      const schema = z.preprocess(
        toNumber,
        z
          .number({ error: `${label} must be a whole number.` })
          .int({ error: `${label} must be a whole number.` })
          .min(-2147483648, { error: `${label} is too small.` })
          .max(2147483647, { error: `${label} is too large.` }),
      );
      return withinRange(schema, (n) => n, label, min, max);
    }
    case 'decimal':
    case 'money': {
      const { precision, scale } = digitsOf(field);
      const { min, max } = field.bounds ?? {};
      const digits = z
        .string({ error: `${label} must be a number.` })
        .regex(DECIMAL, { error: `${label} must be a number.` })
        .refine((v) => (v.split('.')[1]?.length ?? 0) <= scale, { error: fractionError(field, scale) })
        .refine((v) => beforeFirst(v.replace(/^-/, ''), '.').replace(/^0+(?=\d)/, '').length <= precision - scale, {
          error: `${label} is too large.`,
        });
      return z.preprocess(
        (raw) => (typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : raw),
        withinRange(digits, Number, label, min, max),
      );
    }
    case 'boolean':
      return z.preprocess(toBoolean, z.boolean({ error: `${label} must be yes or no.` }));
    case 'enum':
      return z.enum(s.values as [string, ...string[]], { error: `${label} must be one of: ${s.values.join(', ')}.` });
    case 'date':
      return z.iso.date({ error: `${label} must be a date (YYYY-MM-DD).` });
    case 'datetime':
      return z.preprocess(
        toDate,
        z
          .date({ error: `${label} must be a date and time.` })
          .refine((d) => d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999, { error: `${label} is out of range.` }),
      );
    case 'references':
      return referencesSchema(label, field.maxItems ?? MAX_REFERENCES, 'record ids');
    case 'users':
      return referencesSchema(label, field.maxItems ?? MAX_REFERENCES, 'user ids');
    // Files are named by the ids their upload answered (a `file` field: one id, kept as a set of one).
    case 'file':
    case 'files':
      return referencesSchema(label, field.files?.maxItems ?? 1, 'file ids');
    case 'reference':
    case 'user':
      return z.preprocess(
        toNumber,
        z
          .number({ error: `${label} must be the id of a record.` })
          .int({ error: `${label} must be the id of a record.` })
          .positive({ error: `${label} must be the id of a record.` })
          .max(Number.MAX_SAFE_INTEGER, { error: `${label} must be the id of a record.` }),
      );
  }
}

/**
 * A set of ids (of records, or of users): a JSON array of ids, or what a form posts (one value, or several of the
 * same name); a comma-separated text too (CSV cells join ids with ";", also accepted). Repeats
 * are dropped and the ids sorted, so the same set is always the same value.
 */
function referencesSchema(label: string, maxItems: number, what: string): z.ZodType<readonly number[]> {
  const error = `${label} must be a list of ${what}.`;
  const id = z.preprocess(toNumber, z.number({ error }).int({ error }).positive({ error }).max(Number.MAX_SAFE_INTEGER, { error }));
  return z.preprocess(
    (raw) =>
      typeof raw === 'string'
        ? raw
            .split(/[,;]/)
            .map((part) => part.trim())
            .filter((part) => part !== '')
        : typeof raw === 'number'
          ? [raw]
          : raw,
    z
      .array(id, { error })
      .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
      .refine((ids) => ids.length <= maxItems, { error: `${label} can hold at most ${maxItems}.`, params: { code: 'too_big' } }),
  ) as z.ZodType<readonly number[]>;
}

/** The schema for one field, including "required". Issues carry the user's message. */
export function fieldSchema(field: FieldModel): z.ZodType<StoredValue> {
  const inner = valueSchema(field);
  // An empty set is the empty set, never null: there is no column to hold a null.
  const empty = isSetField(field) || field.files ? [] : null;
  return z.preprocess(
    (raw) => emptyToNull(raw) ?? empty,
    z.union([z.null(), inner]).superRefine((value, ctx) => {
      if ((value === null || (Array.isArray(value) && value.length === 0)) && field.required)
        ctx.addIssue({ code: 'custom', message: `${field.label} is required.`, params: { code: 'required' } });
      // PostgreSQL text cannot hold NUL, and no person types one.
      if (typeof value === 'string' && value.includes('\u0000'))
        ctx.addIssue({ code: 'custom', message: `${field.label} cannot contain a NUL character.`, params: { code: 'invalid_character' } });
    }),
  ) as z.ZodType<StoredValue>;
}

/** The issue a failed parse reports first: zod reports at least one whenever it fails. */
export function firstIssue(error: { readonly issues: readonly z.core.$ZodIssue[] }): z.core.$ZodIssue {
  const [issue] = error.issues;
  if (issue === undefined) throw new Error('A failed zod parse reported no issue.');
  return issue;
}

/** Turns a zod issue into a short machine code for the field error. */
export function issueCode(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom') return (issue.params as { code?: string } | undefined)?.code ?? 'invalid';
  if (issue.code === 'invalid_union') {
    const nested = issue.errors.flat().find((i) => i.code !== 'invalid_type' || i.expected !== 'null');
    return nested ? issueCode(nested) : 'invalid_type';
  }
  if (issue.code === 'too_small') return 'too_small';
  if (issue.code === 'too_big') return 'too_big';
  if (issue.code === 'invalid_format') return issue.format === 'regex' ? 'pattern' : `invalid_${issue.format}`;
  return issue.code;
}

/**
 * The user's message of an issue: the spec's own words for its kind when the field has them
 * (`messages`), else the built-in one, looking through the union of null | value.
 */
export function issueMessage(issue: z.core.$ZodIssue, field?: Pick<FieldModel, 'spec'>): string {
  const own = field?.spec.messages;
  if (own) {
    const code = issueCode(issue);
    const kind = (FIELD_MESSAGE_KINDS as readonly string[]).includes(code) ? (code as FieldMessageKind) : 'invalid';
    if (own[kind]) return own[kind];
  }
  if (issue.code === 'invalid_union') {
    const nested = issue.errors.flat().find((i) => i.code !== 'invalid_type' || i.expected !== 'null');
    if (nested) return issueMessage(nested);
  }
  return issue.message;
}
