import type { Faker } from '@faker-js/faker';
import type { FieldModel } from '../spec/model';
import type { ConstantRef } from '../spec/types';

type Value = string | number | boolean | Date | null;

function numberOf(value: number | ConstantRef | undefined, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

function clip(text: string, min: number | undefined, max: number | undefined): string {
  let result = text;
  if (min !== undefined && result.length < min) result = result.padEnd(min, '.');
  if (max !== undefined && result.length > max) result = result.slice(0, max).trimEnd();
  return result;
}

/** Plausible text for a field, guessed from its name: a subject reads like a subject. */
function textFor(faker: Faker, field: FieldModel): string {
  const name = field.name.toLowerCase();
  if (name.includes('subject') || name.includes('title')) return faker.helpers.arrayElement([
    `${faker.hacker.verb()} ${faker.hacker.noun()} fails after ${faker.system.semver()} update`,
    `Cannot ${faker.hacker.verb()} the ${faker.hacker.adjective()} ${faker.hacker.noun()}`,
    `${faker.commerce.productName()} ${faker.helpers.arrayElement(['is slow', 'shows an error', 'keeps logging me out', 'lost my settings'])}`,
    `Question about ${faker.commerce.department().toLowerCase()} billing`,
  ]);
  if (name === 'name' || name.endsWith('name')) return faker.company.name();
  if (name.includes('domain') || name.includes('host')) return faker.internet.domainName();
  if (name.includes('city')) return faker.location.city();
  if (name.includes('phone')) return faker.phone.number();
  return faker.lorem.words({ min: 2, max: 6 });
}

function markdownFor(faker: Faker): string {
  const paragraphs = faker.helpers.multiple(() => faker.lorem.sentences({ min: 1, max: 4 }), { count: { min: 1, max: 3 } });
  if (faker.datatype.boolean({ probability: 0.3 })) {
    paragraphs.push(faker.helpers.multiple(() => `- ${faker.lorem.sentence()}`, { count: { min: 2, max: 4 } }).join('\n'));
  }
  return paragraphs.join('\n\n');
}

/** A valid demo value for one field (within its declared lengths and ranges). */
export function demoValue(faker: Faker, field: FieldModel, unique: number): Value {
  const s = field.spec;
  if (!field.required && s.type !== 'boolean' && faker.datatype.boolean({ probability: 0.2 })) return null;
  switch (s.type) {
    case 'text': {
      const base = textFor(faker, field);
      const text = s.unique || field.unique ? `${base} ${unique}` : base;
      return s.format === 'hostname' ? `${faker.internet.domainWord()}-${unique}.${faker.internet.domainSuffix()}` : clip(text, s.minLength, s.maxLength);
    }
    case 'markdown':
      return clip(markdownFor(faker), s.minLength, s.maxLength);
    case 'integer':
      return faker.number.int({ min: numberOf(s.min, 0), max: numberOf(s.max, 1000) });
    case 'decimal':
      return faker.number.float({ min: numberOf(s.min, 0), max: numberOf(s.max, 10000), fractionDigits: s.scale ?? 2 }).toFixed(s.scale ?? 2);
    case 'boolean':
      return faker.datatype.boolean({ probability: 0.25 });
    case 'enum':
      return faker.helpers.arrayElement(s.values);
    case 'date':
      return faker.date.between({ from: Date.now() - 365 * 864e5, to: Date.now() + 90 * 864e5 }).toISOString().slice(0, 10);
    case 'datetime':
      return faker.date.between({ from: Date.now() - 30 * 864e5, to: Date.now() + 30 * 864e5 });
    case 'email':
      return s.unique || field.unique ? `user${unique}@${faker.internet.domainName()}` : faker.internet.email().toLowerCase();
    case 'url':
      return faker.internet.url();
    case 'reference':
    case 'user':
      return null; // filled by the seeder from ids that exist
  }
}
