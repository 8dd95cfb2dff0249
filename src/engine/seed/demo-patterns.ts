import type { Faker } from '@faker-js/faker';
import RandExp from 'randexp';

/*
 * Demo texts for a field with a `pattern` (a slug, a product code): the record's natural text
 * shaped the ways patterns usually want it ("weekly-report-review", "WEEKLY_REPORT"), else strings
 * generated from the regular expression itself, each checked against the pattern and the field's
 * lengths as the field's schema checks them.
 */

/** Generated strings tried before giving up: enough for patterns with a few alternatives left free. */
const GENERATED_TRIES = 60;

export interface PatternField {
  readonly pattern: string;
  readonly minLength?: number;
  readonly maxLength?: number;
}

function characters(text: string): number {
  return [...text].length;
}

const compiled = new Map<string, { regex: RegExp; generator: RandExp | null }>();

/**
 * The pattern without its lookbehinds (`(?<=x)`, `(?<!x)`), which randexp cannot read: they only
 * restrict what comes next, and every string made is checked against the whole pattern anyway.
 */
function withoutLookbehinds(pattern: string): string {
  let result = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      result += pattern.slice(i, i + 2);
      i++;
    } else if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) {
      // Skip to the parenthesis that closes it (escapes and nested groups counted).
      let depth = 0;
      for (; i < pattern.length; i++) {
        if (pattern[i] === '\\') i++;
        else if (pattern[i] === '(') depth++;
        else if (pattern[i] === ')' && --depth === 0) break;
      }
    } else result += pattern[i];
  }
  return result;
}

/** The pattern as the field's schema reads it, and a generator of strings for it (none for syntax beyond randexp). */
function compile(pattern: string): { regex: RegExp; generator: RandExp | null } {
  let entry = compiled.get(pattern);
  if (!entry) {
    let generator: RandExp | null = null;
    try {
      // Its characters are printable ASCII (`.` and negated classes too): what a person would type.
      generator = new RandExp(withoutLookbehinds(pattern));
    } catch {
      // The record's own text may still fit; else the field is named as one the seeder cannot fill.
    }
    compiled.set(pattern, (entry = { regex: new RegExp(pattern), generator }));
  }
  return entry;
}

/** The text in the shapes patterns usually ask for: as written, kebab or snake case, capitals; then as one word. */
function shapes(text: string): { separated: string[]; joined: string } {
  const words = text
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
  return {
    separated: [text, words.join('-'), words.join('_'), words.join('_').toUpperCase(), words.join('-').toUpperCase()],
    joined: words.join(''),
  };
}

/** The shape cut to `max` characters at a word boundary when it has one, the separators at its ends dropped. */
function cut(text: string, max: number | undefined): string {
  if (max === undefined || characters(text) <= max) return text;
  const head = [...text].slice(0, max).join('');
  const boundary = head.search(/[-_ ][^-_ ]*$/);
  return (boundary > 0 ? head.slice(0, boundary) : head).replace(/^[-_ ]+|[-_ ]+$/g, '');
}

/** The shape with a number that makes it distinct, cut so that the number stays. */
function numbered(text: string, n: number, max: number | undefined): string[] {
  const suffixes = [`-${n}`, `_${n}`, ` ${n}`, String(n)];
  return suffixes.map((suffix) => `${cut(text, max === undefined ? undefined : Math.max(0, max - suffix.length))}${suffix}`);
}

/**
 * A text matching the field's pattern and lengths that `isFree` accepts: a shape of `natural`,
 * the same with a number, or one generated from the pattern. `matched` is false when nothing
 * matched at all (the pattern is beyond the generator), else the last match is returned, taken
 * or not, so that the caller can tell "no value" from "no free value".
 */
export function patternText(
  faker: Faker,
  field: PatternField,
  natural: string,
  unique: number,
  isFree: (value: string) => boolean,
): { value: string; matched: true } | { matched: false } {
  const { regex, generator } = compile(field.pattern);
  const fits = (value: string) =>
    regex.test(value) && characters(value) >= (field.minLength ?? 0) && characters(value) <= (field.maxLength ?? Infinity);
  let last: string | null = null;
  const accept = (value: string): boolean => {
    if (!fits(value)) return false;
    last = value;
    return isFree(value);
  };
  // Words with separators, then with a number, before run-together words: "weekly-report-2" reads better than "weeklyreport".
  const { separated, joined } = shapes(natural);
  const candidates = [
    separated,
    separated.slice(1).flatMap((shape) => numbered(shape, unique, field.maxLength)),
    [joined],
    numbered(joined, unique, field.maxLength),
  ].flat();
  for (const candidate of candidates) {
    const value = cut(candidate, field.maxLength);
    if (accept(value)) return { value, matched: true };
  }
  if (!generator) return last === null ? { matched: false } : { value: last, matched: true };
  generator.randInt = (from: number, to: number) => faker.number.int({ min: from, max: to });
  for (let attempt = 0; attempt < GENERATED_TRIES; attempt++) {
    // Short repetitions first (`+` and `*` as a few characters), longer ones when a minimum length asks for them.
    generator.max = attempt < GENERATED_TRIES / 3 ? 4 : attempt < (2 * GENERATED_TRIES) / 3 ? 10 : 30;
    if (accept(generator.gen())) return { value: last!, matched: true };
  }
  return last === null ? { matched: false } : { value: last, matched: true };
}
