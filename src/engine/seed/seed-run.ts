import type { Faker } from '@faker-js/faker';
import type { AppModel } from '../spec/model';
import type { DemoUsers } from './demo-users';
import type { Values } from './workflow-walk';

/** The records of an entity seeded so far: ids, and what later records need to know of each. */
export interface SeededRecords {
  readonly ids: number[];
  /** Per record (same index as ids): its values other than texts, with createdAt and updatedAt. */
  readonly facts: Values[];
}

/** What every record of one seeding run shares. */
export interface SeedRun {
  readonly model: AppModel;
  readonly faker: Faker;
  readonly now: Date;
  /** The span the main records' creation times are spread over. */
  readonly spanMs: number;
  readonly users: DemoUsers;
  readonly seeded: Map<string, SeededRecords>;
  /** Records counting towards each limit per owner: `<entity>:<limit>:<owner>`. */
  readonly limitCounts: Map<string, number>;
  /** The spec's user fields the seeder gave each demo user (see demo-user-fields.ts). */
  readonly userFields: Map<number, Readonly<Record<string, unknown>>>;
  /** Users that fit each user field: `<entity>.<field>`. */
  readonly pools: Map<string, readonly number[]>;
  /** Value tuples of unique keys already used (see demo-unique.ts): `<entity>:<field>[+<field>...]`. */
  readonly uniqueTaken: Map<string, Set<string>>;
  /** Seeded records by the value of a field: `<entity>.<field>` (see demo-references.ts). */
  readonly indexes: Map<string, Map<unknown, number[]>>;
}

/** The seeded record at a position of `records` (ids and facts share their positions). */
export function seededAt(records: SeededRecords, index: number): { readonly id: number; readonly facts: Values } {
  const id = records.ids[index];
  const facts = records.facts[index];
  if (id === undefined || facts === undefined) throw new Error(`No seeded record at position ${index} of ${records.ids.length}`);
  return { id, facts };
}

/** One element at random, or null from an empty list. */
export function pickFrom<T>(faker: Faker, list: readonly T[]): T | null {
  return list.length > 0 ? faker.helpers.arrayElement(list) : null;
}

/**
 * How long ago the record at `position` (0 the first, 1 the last) of a step was created, between
 * `from` and `to` ago: older records first, so ids follow time as they would, denser towards now
 * (a business that grows, and half of the records in the last quarter of the span: charts of the
 * last 30 days and queues of open work have something to show).
 */
export function createdAgo(position: number, from: number, to: number): number {
  return to + (from - to) * (1 - position) ** 2;
}
