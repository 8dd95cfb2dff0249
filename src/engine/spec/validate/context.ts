import type { SpecIssue } from '../spec-error';

/**
 * Shared pieces of the spec checks. The spec may come from a JavaScript file, so every check
 * reads it as `unknown` and tests types at run time; nothing here trusts the TypeScript types.
 */

export type Rec = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

export function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export function isConstantRef(value: unknown): value is { readonly $constant: unknown } {
  return isRecord(value) && '$constant' in value;
}

/** How a value reads in a message: strings quoted, the rest by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

export function quoteList(values: Iterable<string>): string {
  const list = [...values];
  return list.length === 0 ? '(none)' : list.join(', ');
}

/** Identifiers: camelCase letters and digits, starting with a lower-case letter. */
export const IDENTIFIER = /^[a-z][A-Za-z0-9]*$/;
export const IDENTIFIER_RULE = 'camelCase letters and digits, starting with a lower-case letter';

const SIMPLE_KEY = /^[A-Za-z0-9_$-]+$/;

/** `screens` + `labels` → `screens.labels`; keys with dots or spaces are bracketed. */
export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  const part = SIMPLE_KEY.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (path === '') return part;
  return part.startsWith('[') ? `${path}${part}` : `${path}.${part}`;
}

/** The fields of an entity as the checks need them: name → raw field spec (when an object). */
export interface EntityInfo {
  readonly name: string;
  readonly fields: ReadonlyMap<string, Rec>;
  readonly workflow: WorkflowInfo | null;
}

export interface WorkflowInfo {
  readonly field: string;
  /** False when the spec leaves the default state field name. */
  readonly fieldDeclared: boolean;
  readonly states: readonly string[];
  readonly transitions: readonly string[];
}

/** What every check may look up: the names the spec declares. Built leniently from raw data. */
export interface Symbols {
  readonly entities: ReadonlyMap<string, EntityInfo>;
  readonly roles: ReadonlySet<string>;
  readonly constants: ReadonlyMap<string, unknown>;
  readonly errorCodes: ReadonlySet<string>;
  /** The spec's user fields (`users.fields`): what `{ actor: 'team' }` and `requester.team` may name. */
  readonly users: ReadonlyMap<string, Rec>;
  /** purpose.currency as written (checked by checkPurpose): the currency of money fields that name none. */
  readonly currency: unknown;
}

/** Collects issues; every check reports here and goes on, so one run lists every problem. */
export class Issues {
  readonly list: SpecIssue[] = [];

  add(path: string, message: string): void {
    this.list.push({ path, message });
  }

  /** Reports keys of `value` that are not in `allowed`. */
  unknownKeys(value: Rec, allowed: readonly string[], path: string, what: string): void {
    for (const key of Object.keys(value)) {
      if (allowed.includes(key)) continue;
      const hint = closest(key, allowed);
      this.add(at(path, key), `unknown key in ${what}${hint ? ` (did you mean "${hint}"?)` : ''}; expected one of ${allowed.join(', ')}`);
    }
  }

  /** Checks that `value` is a record; reports and returns false otherwise. */
  record(value: unknown, path: string, what: string): value is Rec {
    if (isRecord(value)) return true;
    this.add(path, `${what} must be an object, got ${describeValue(value)}`);
    return false;
  }

  optionalString(owner: Rec, key: string, path: string): void {
    const value = owner[key];
    if (value !== undefined && !isString(value)) this.add(at(path, key), `must be a string, got ${describeValue(value)}`);
  }

  requiredText(owner: Rec, key: string, path: string): void {
    const value = owner[key];
    if (value === undefined) this.add(at(path, key), 'is required');
    else if (!isNonEmptyString(value)) this.add(at(path, key), `must be a non-empty string, got ${describeValue(value)}`);
  }

  optionalBoolean(owner: Rec, key: string, path: string): void {
    const value = owner[key];
    if (value !== undefined && typeof value !== 'boolean') this.add(at(path, key), `must be true or false, got ${describeValue(value)}`);
  }

  /** A list of strings; returns the strings found (skipping wrong items, which are reported). */
  stringList(value: unknown, path: string): string[] {
    if (!Array.isArray(value)) {
      this.add(path, `must be a list of names, got ${describeValue(value)}`);
      return [];
    }
    const items: string[] = [];
    value.forEach((item: unknown, index) => {
      if (isString(item)) items.push(item);
      else this.add(at(path, index), `must be a string, got ${describeValue(item)}`);
    });
    return items;
  }

  /** Reports repeated names in a list of strings read from `path`. */
  duplicates(items: readonly unknown[], path: string, what: string): void {
    const seen = new Set<unknown>();
    items.forEach((item, index) => {
      if (seen.has(item)) this.add(at(path, index), `duplicate ${what} ${describeValue(item)}`);
      seen.add(item);
    });
  }
}

/** The allowed word closest to a typo, when it is close enough to be a likely mistake. */
function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Levenshtein's distance, a row of the table at a time: row[j] is the distance between the
 * first i letters of a and the first j of b. Going along a row, `left` is the entry just
 * computed and `diagonal` the previous row's entry before `above`.
 */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  let distance = b.length;
  for (let i = 1; i <= a.length; i++) {
    let left = i;
    let diagonal = i - 1;
    const next = [left];
    for (const [j, above] of row.slice(1).entries()) {
      left = Math.min(above + 1, left + 1, diagonal + (a[i - 1] === b[j] ? 0 : 1));
      next.push(left);
      diagonal = above;
    }
    row = next;
    distance = left;
  }
  return distance;
}
