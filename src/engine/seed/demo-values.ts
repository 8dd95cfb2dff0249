import type { Faker } from '@faker-js/faker';
import type { FieldModel } from '../spec/model';
import type { ConstantRef, ConstantSpec, DateBound } from '../spec/types';
import { namedText, paragraphs, titleText } from './demo-texts';

type Value = string | number | boolean | Date | readonly number[] | null;

const DAY_MS = 24 * 60 * 60 * 1000;

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
   * The values of this unique field used so far: a value is made distinct (a number added) only
   * when taken. Without it every unique value carries the number.
   */
  readonly taken?: Set<string>;
}

/** A unique field's value: as made when still free, else with the number that makes it unique. */
function distinct(value: string, withNumber: () => string, context: DemoContext): string {
  const result = !context.taken || context.taken.has(value.toLowerCase()) ? withNumber() : value;
  context.taken?.add(result.toLowerCase());
  return result;
}

function numberOf(value: number | ConstantRef | undefined, fallback: number, context: DemoContext): number {
  if (typeof value === 'number') return value;
  const constant = value ? context.constants?.[value.$constant]?.value : undefined;
  return typeof constant === 'number' ? constant : fallback;
}

function clip(text: string, min: number | undefined, max: number | undefined): string {
  let result = text;
  if (min !== undefined && result.length < min) result = `${result} More details to follow.`.padEnd(min, '.');
  if (max !== undefined && result.length > max) result = result.slice(0, max).trimEnd();
  return result;
}

/** A field's text: its name's kind (a phone, a city), a title, or a sentence or two. */
function textFor(faker: Faker, field: FieldModel, context: DemoContext): string {
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
 * created to a month after (a due time, a meeting), narrowed or moved by `after` and `before`.
 */
function timeFor(faker: Faker, spec: { after?: DateBound; before?: DateBound }, context: DemoContext): Date {
  const at = context.at ?? new Date();
  const after = boundTime(spec.after, at, context);
  const before = boundTime(spec.before, at, context);
  let from = after !== undefined ? after + 60_000 : at.getTime() - 7 * DAY_MS;
  let to = before !== undefined ? before - 60_000 : at.getTime() + 30 * DAY_MS;
  if (after !== undefined && before === undefined) to = Math.max(to, from + 30 * DAY_MS);
  if (before !== undefined && after === undefined) from = Math.min(from, to - 365 * DAY_MS);
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
        return isUnique ? distinct(domain, () => `${faker.internet.domainWord()}-${unique}.${faker.internet.domainSuffix()}`, context) : domain;
      }
      if (s.pattern) {
        const matching = faker.helpers.fromRegExp(s.pattern);
        if (new RegExp(s.pattern).test(matching)) return matching;
      }
      const base = textFor(faker, field, context);
      if (!isUnique) return clip(base, s.minLength, s.maxLength);
      return distinct(clip(base, s.minLength, s.maxLength), () => clip(`${base} ${unique}`, s.minLength, s.maxLength), context);
    }
    case 'markdown':
      return clip(paragraphs(faker, field.name, context.entityName ?? '', true), s.minLength, s.maxLength);
    case 'integer':
      return faker.number.int({ min: numberOf(s.min, 0, context), max: numberOf(s.max, 1000, context) });
    case 'decimal': {
      const scale = s.scale ?? 2;
      return faker.number.float({ min: numberOf(s.min, 0, context), max: numberOf(s.max, 10000, context), fractionDigits: scale }).toFixed(scale);
    }
    case 'boolean':
      return faker.datatype.boolean({ probability: 0.25 });
    case 'enum':
      return faker.helpers.arrayElement(s.values);
    case 'date':
      return timeFor(faker, s, context).toISOString().slice(0, 10);
    case 'datetime':
      return timeFor(faker, s, context);
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
      return []; // filled by the seeder from ids that exist
  }
}
