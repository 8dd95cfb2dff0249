import { HOSTNAME } from '../../rules/hostname';
import { at, describeValue, isInteger, isNonEmptyString, isString, quoteList, type EntityInfo, type Issues, type Rec } from './context';

/**
 * An entity's `samples`: per text or markdown field, the texts its demo data picks among. Each is
 * checked here against the field's own rules, as the field's schema would check it on a write, so
 * that a sample the seeder takes is never refused half-way through a seed.
 */
export function checkSamples(samples: unknown, info: EntityInfo, path: string, issues: Issues): void {
  if (samples === undefined || !issues.record(samples, path, 'samples')) return;
  const textFields = [...info.fields].filter(([, f]) => f.type === 'text' || f.type === 'markdown').map(([name]) => name);
  for (const [name, texts] of Object.entries(samples)) {
    const where = at(path, name);
    const field = info.fields.get(name);
    if (!field) {
      issues.add(where, `${info.name} has no field "${name}" (its text and markdown fields: ${quoteList(textFields)})`);
      continue;
    }
    const reason = refusal(field);
    if (reason) {
      issues.add(where, `${info.name}.${name} ${reason}`);
      continue;
    }
    checkTexts(texts, field, where, issues);
  }
}

/** Why a field takes no samples: the seeder makes no text for it, or takes none from the spec. */
function refusal(field: Rec): string | null {
  if (field.type !== 'text' && field.type !== 'markdown') {
    return `is ${describeValue(field.type)}, not a text or markdown field: samples are texts, and the demo data makes other values itself`;
  }
  if (field.computed !== undefined) return 'is computed: the engine writes it from the record, so it takes no samples';
  if (field.derived !== undefined) return 'is derived: the engine writes it from related records, so it takes no samples';
  if (field.readOnly === true) return 'is read-only: demo records start it as a create does (its default), so it takes no samples';
  return null;
}

function checkTexts(texts: unknown, field: Rec, path: string, issues: Issues): void {
  if (!Array.isArray(texts)) {
    issues.add(path, `must be a list of texts, got ${describeValue(texts)}`);
    return;
  }
  if (texts.length === 0) {
    issues.add(path, 'is an empty list: give at least one text, or leave the field out to have texts made up');
    return;
  }
  texts.forEach((text: unknown, index) => {
    const where = at(path, index);
    if (!isString(text)) issues.add(where, `must be a text, got ${describeValue(text)}`);
    else if (!isNonEmptyString(text)) issues.add(where, 'is empty: a sample is a value the field shows');
    else {
      const broken = brokenRule(text, field);
      if (broken) issues.add(where, `${opening(text)} ${broken}`);
    }
  });
  issues.duplicates(texts as readonly unknown[], path, 'sample');
}

/** The text quoted in a message, cut after its first words when long (a markdown body may run to pages). */
function opening(text: string): string {
  const characters = [...text];
  return characters.length <= OPENING ? JSON.stringify(text) : `${JSON.stringify(characters.slice(0, OPENING).join(''))}…`;
}
const OPENING = 40;

/** The field's rule the text breaks, as its schema reads it (lengths in characters, the pattern unanchored), or null. */
function brokenRule(text: string, field: Rec): string | null {
  const length = [...text].length;
  if (isInteger(field.maxLength) && length > field.maxLength)
    return `is longer than the field's maxLength ${field.maxLength} (${length} characters)`;
  if (isInteger(field.minLength) && length < field.minLength)
    return `is shorter than the field's minLength ${field.minLength} (${length} characters)`;
  const pattern = compiled(field.pattern);
  if (pattern && !pattern.test(text)) return `does not match the field's pattern ${String(field.pattern)}`;
  if (field.format === 'hostname' && !HOSTNAME.test(text)) return 'is not a host name such as example.com';
  return null;
}

/** The pattern as the field's schema compiles it; null when absent or invalid (reported at the field's pattern). */
function compiled(pattern: unknown): RegExp | null {
  if (!isString(pattern)) return null;
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
}
