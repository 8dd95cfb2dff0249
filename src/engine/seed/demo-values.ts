import type { Faker } from '@faker-js/faker';
import { demoAmount } from './demo-money';
import type { FieldModel } from '../spec/model';
import { digitsOf, resolveNumber } from '../spec/field-numbers';
import type { ConstantRef, ConstantSpec, DateBound } from '../spec/types';
import { isDeadline } from './demo-deadlines';
import { patternText } from './demo-patterns';
import { namedText, paragraphs, titleText } from './demo-texts';

type Value = string | number | boolean | Date | readonly number[] | null;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Where a value is made: the record's entity, its creation time and what is known of it so far. */
export interface DemoContext {
  readonly entityName?: string;
  /** The time the record is created: "now" for bounds and the centre of date ranges. */
  readonly at?: Date;
  readonly constants?: Readonly<Record<string, ConstantSpec>>;
  /** The record's values so far (by field name), for bounds on another field. */
  readonly record?: Readonly<Record<string, unknown>>;
  /** The entity's title field: its text is the record's name, not a sentence. */
  readonly titleField?: string | null;
  /** The name of the record it belongs to (a deal's company), for a title that mentions it. */
  readonly about?: string;
  /**
   * Whether a value of this unique field is still free: a value is made distinct (a number added)
   * only when taken. Without it every unique value carries the number.
   */
  readonly isFree?: (value: unknown) => boolean;
  /** How many values were refused before this one (taken): a unique date looks further away each time. */
  readonly attempt?: number;
  /** The entity's fields, for samples that go with another field's (see pairedSample). */
  readonly fields?: readonly FieldModel[];
}

/** The field's pattern matches no value the seeder can make (within its lengths): it names the field. */
export class NoDemoValue extends Error {}

/** A unique field's value: as made when still free, else with the number that makes it unique. */
function distinct(value: string, withNumber: () => string, context: DemoContext): string {
  return context.isFree?.(value) ? value : withNumber();
}

function numberOf(value: number | ConstantRef | undefined, fallback: number, context: DemoContext): number {
  return resolveNumber(value, context.constants ?? {}) ?? fallback;
}

/** A number field's declared range, or `span` from zero (or from the one end declared). */
function rangeOf(field: FieldModel, span: number): { min: number; max: number } {
  const declared = field.bounds ?? {};
  const max = declared.max ?? NaN;
  const min = declared.min ?? (Number.isNaN(max) ? 0 : Math.min(0, max - span));
  return { min, max: Number.isNaN(max) ? min + span : max };
}

/** Characters (code points, as the field's schema counts them), never more than `text.length`. */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The text within the lengths. */
function clip(text: string, min: number | undefined, max: number | undefined): string {
  let result = text;
  if (min !== undefined && characters(result) < min) result = `${result} More details to follow.`.padEnd(min, '.');
  if (max !== undefined && result.length > max && characters(result) > max) result = [...result].slice(0, max).join('').trimEnd();
  return result;
}

/** The text with a number that makes it distinct, cut before the number rather than through it. */
function withNumber(text: string, n: number, min: number | undefined, max: number | undefined): string {
  const suffix = ` ${n}`;
  return clip(`${clip(text, undefined, max === undefined ? undefined : Math.max(1, max - suffix.length))}${suffix}`, min, max);
}

/**
 * The sample at the place another field of the record took its own from, when their lists go
 * together (as long: an enquiry's subject and its message, see spec/samples.ts), so that a record
 * reads as one piece. Undefined when no such field has a sample (as written) yet.
 */
function pairedSample(field: FieldModel, samples: readonly string[], context: DemoContext): string | undefined {
  for (const name of field.samplesWith ?? []) {
    const value = context.record?.[name];
    const index = typeof value === 'string' ? (context.fields?.find((f) => f.name === name)?.samples?.indexOf(value) ?? -1) : -1;
    if (index >= 0) return samples[index];
  }
  return undefined;
}

/**
 * One of the spec's samples for the field: the one going with another field's (pairedSample), else
 * at random, for a unique field one still free while there is one (then the caller adds a number
 * to one taken), so the samples read as written for as long as they last.
 */
function sampleFor(faker: Faker, field: FieldModel, samples: readonly string[], context: DemoContext): string {
  const paired = pairedSample(field, samples, context);
  if (paired !== undefined) return paired;
  const free = context.isFree && faker.helpers.shuffle([...samples]).find((sample) => context.isFree?.(sample));
  return free || faker.helpers.arrayElement(samples);
}

/** A field's text: one of the spec's samples, its name's kind (a phone, a city), a title, or a sentence or two. */
function textFor(faker: Faker, field: FieldModel, context: DemoContext): string {
  if (field.samples) return sampleFor(faker, field, field.samples, context);
  const entity = context.entityName ?? '';
  const named = namedText(faker, field.name, entity);
  if (named !== null) return named;
  const name = field.name.toLowerCase();
  if (field.name === context.titleField || /subject|title|headline|summary/.test(name)) return titleText(faker, entity, context.about);
  return paragraphs(faker, field.name, entity, false);
}

/** The time a date bound stands for, when it can be known here. */
function boundTime(bound: DateBound | undefined, at: Date, context: DemoContext): number | undefined {
  if (!bound) return undefined;
  if ('now' in bound) return at.getTime();
  if ('field' in bound) {
    const other = bound.field === 'createdAt' ? at : context.record?.[bound.field];
    const time = other instanceof Date ? other.getTime() : typeof other === 'string' ? Date.parse(other) : NaN;
    return Number.isNaN(time) ? undefined : time;
  }
  return at.getTime() - numberOf(bound.daysAgo, 0, context) * DAY_MS;
}

/**
 * A time within the field's declared range: by default from a week before the record was
 * created to a month after (a meeting), from an hour after it for a deadline (a due time, an
 * expected close: see demo-deadlines.ts), narrowed or moved by `after` and `before`.
 */
function timeFor(faker: Faker, spec: { after?: DateBound; before?: DateBound }, context: DemoContext, deadline: boolean): Date {
  const at = context.at ?? new Date();
  const after = boundTime(spec.after, at, context);
  const before = boundTime(spec.before, at, context);
  // A unique date that was taken looks further away each time: twice as far every four tries.
  const widen = 2 ** Math.floor((context.attempt ?? 0) / 4);
  const earliest = deadline ? at.getTime() + HOUR_MS : at.getTime() - 7 * DAY_MS * widen;
  let from = after !== undefined ? after + 60_000 : earliest;
  // A deadline lies ahead of its record even where its bound allows the past ("not before yesterday").
  if (deadline && from < earliest && (before === undefined || earliest < before - 60_000)) from = earliest;
  let to = before !== undefined ? before - 60_000 : at.getTime() + 30 * DAY_MS * widen;
  if (after !== undefined && before === undefined) to = Math.max(to, from + 30 * DAY_MS * widen);
  if (before !== undefined && after === undefined) from = Math.min(from, to - 365 * DAY_MS * widen);
  if (to < from) to = from;
  return faker.date.between({ from, to });
}

/**
 * A valid demo value for one field (within its declared lengths, ranges and date bounds), in
 * plain English. Reference and user fields are left to the seeder, which knows what exists.
 */
export function demoValue(faker: Faker, field: FieldModel, unique: number, context: DemoContext = {}): Value {
  const s = field.spec;
  if (!field.required && s.type !== 'boolean' && faker.datatype.boolean({ probability: 0.2 })) return null;
  switch (s.type) {
    case 'text': {
      const isUnique = s.unique || field.unique;
      if (s.format === 'hostname') {
        const domain = faker.internet.domainName();
        return isUnique
          ? distinct(domain, () => `${faker.internet.domainWord()}-${unique}.${faker.internet.domainSuffix()}`, context)
          : domain;
      }
      const base = textFor(faker, field, context);
      if (s.pattern) {
        // A slug or a code says what the record is called, when it has a name already.
        const title = context.titleField && context.titleField !== field.name ? context.record?.[context.titleField] : undefined;
        // A sample is the spec's own word for the field: shaped to the pattern only when taken.
        const natural = !field.samples && typeof title === 'string' && title !== '' ? title : base;
        const made = patternText(
          faker,
          { pattern: s.pattern, minLength: s.minLength, maxLength: s.maxLength },
          natural,
          unique,
          (v) => !isUnique || (context.isFree?.(v) ?? true),
        );
        if (!made.matched)
          throw new NoDemoValue(
            `${context.entityName ? `${context.entityName}.` : ''}${field.name}: no demo value matches its pattern ${s.pattern}${s.minLength !== undefined || s.maxLength !== undefined ? ` within ${s.minLength ?? 0} to ${s.maxLength ?? 'any number of'} characters` : ''}.`,
          );
        return made.value;
      }
      if (!isUnique) return clip(base, s.minLength, s.maxLength);
      return distinct(clip(base, s.minLength, s.maxLength), () => withNumber(base, unique, s.minLength, s.maxLength), context);
    }
    case 'markdown': {
      if (!field.samples) return clip(paragraphs(faker, field.name, context.entityName ?? '', true), s.minLength, s.maxLength);
      const body = sampleFor(faker, field, field.samples, context);
      return s.unique || field.unique ? distinct(body, () => withNumber(body, unique, s.minLength, s.maxLength), context) : body;
    }
    case 'integer': {
      const { min, max } = rangeOf(field, 1000);
      return faker.number.int({ min: Math.ceil(min), max: Math.floor(max) });
    }
    case 'decimal': {
      const { precision, scale } = digitsOf(field);
      // No more integer digits than the column holds (precision - scale).
      const largest = 10 ** (precision - scale) - 10 ** -scale;
      const { min, max } = rangeOf(field, Math.min(10000, largest));
      return faker.number.float({ min: Math.max(min, -largest), max: Math.min(max, largest), fractionDigits: scale }).toFixed(scale);
    }
    case 'money':
      return demoAmount(faker, field);
    case 'boolean':
      return faker.datatype.boolean({ probability: 0.25 });
    case 'enum':
      return faker.helpers.arrayElement(s.values);
    case 'date':
      return timeFor(faker, s, context, isDeadline(field)).toISOString().slice(0, 10);
    case 'datetime':
      return timeFor(faker, s, context, isDeadline(field));
    case 'email': {
      const email = faker.internet.email().toLowerCase();
      if (!s.unique && !field.unique) return email;
      return distinct(email, () => email.replace('@', `.${unique}@`), context);
    }
    case 'url':
      return faker.internet.url();
    case 'reference':
    case 'user':
      return null; // filled by the seeder from ids that exist
    case 'references':
    case 'users':
      return []; // filled by the seeder from ids that exist
    case 'file':
    case 'files':
      return []; // the seeder attaches small generated files once the records exist (demo-files.ts)
  }
}
