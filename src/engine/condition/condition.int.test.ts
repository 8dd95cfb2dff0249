import fc from 'fast-check';
import { sql, type RawBuilder } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { Actor } from '../ground/actor';
import { openSyncedQuickly } from '@testing/engine/ops';
import { recordColumns, rowToRecord, valuesToRow } from '../ops/records';
import { buildModel } from '../spec/build';
import type { AppSpec, Condition } from '../spec/types';
import { USER_TABLE } from '../store/schema/desired';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { boundConditionSql } from './bound-sql';
import { compileCondition } from './compile';
import { evaluateCompiled, type EvalContext } from './evaluate';
import { conditionLeaves } from './fold';
import { literalPredicateSql } from './literal-sql';
import { holdsThreeValued } from './three-valued';
import type { CompiledCondition } from './types';

/*
 * The differential test of the condition language: random conditions over an entity with a
 * field of every comparable type (and paths through a reference and a user field) × random
 * records with empty values, judged in memory and by the database. In-memory evaluation must
 * select exactly the rows `WHERE <bound SQL>` selects; the three-valued evaluation must give
 * exactly the value the literal predicate (a partial index's) has on each row.
 */

const SPEC = {
  name: 'conditions',
  users: { fields: { level: { type: 'integer' } } },
  constants: { three: { value: 3 }, week: { value: 7 } },
  entities: {
    team: { titleField: 'label', fields: { label: { type: 'text' }, rank: { type: 'integer' } } },
    thing: {
      titleField: 'name',
      fields: {
        name: { type: 'text' },
        size: { type: 'integer' },
        cap: { type: 'integer' },
        price: { type: 'decimal' },
        flag: { type: 'boolean' },
        kind: { type: 'enum', values: ['a', 'b', 'c'] },
        day: { type: 'date' },
        at: { type: 'datetime' },
        team: { type: 'reference', to: 'team' },
        person: { type: 'user' },
        // A set (join table): its leaves read "includes" (set-leaf.ts).
        crew: { type: 'users' },
      },
    },
  },
} as unknown as AppSpec;

const model = buildModel(SPEC);
const thing = model.entitiesByName.thing!;
const DAY_MS = 24 * 60 * 60 * 1000;

const TEAMS = [
  { label: 'a', rank: 1 },
  { label: 'b', rank: null },
  { label: null, rank: 3 },
];
const LEVELS = [1, null, 3];

type Values = Record<string, unknown>;

/** The ids the users and the teams got. */
interface Ids {
  readonly users: readonly number[];
  readonly teams: readonly number[];
}

/** A date `days` from `base` as the database keeps dates: 'YYYY-MM-DD'. */
const dayOf = (base: Date, days: number) => new Date(base.getTime() + days * DAY_MS).toISOString().slice(0, 10);

// ---------------------------------------------------------------- conditions

type Op = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';
const ORDERED: readonly Op[] = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte'];
const EQUALITY: readonly Op[] = ['eq', 'ne'];

/** A leaf on one field: its operators and the literals (and other operands) it is compared with. */
function leafOn(
  field: string,
  ops: readonly Op[],
  literals: fc.Arbitrary<string | number | boolean>,
  operands: fc.Arbitrary<unknown>[] = [],
) {
  const value = fc.oneof(literals, ...operands);
  return fc.oneof(
    fc.record({ field: fc.constant(field), op: fc.constantFrom(...ops), value }),
    fc.record({ field: fc.constant(field), op: fc.constantFrom('in', 'notIn'), value: fc.array(literals, { minLength: 1, maxLength: 3 }) }),
    fc.record({ field: fc.constant(field), op: fc.constantFrom('present', 'absent') }),
  ) as fc.Arbitrary<Condition>;
}

const text = fc.constantFrom('a', 'b', 'ab', 'c');
const small = fc.integer({ min: -1, max: 4 });
const days = fc.integer({ min: -3, max: 3 });

/** Leaves that an index predicate can hold: fields of the record with literals and constants. */
function literalLeaf(today: Date, ids: Ids): fc.Arbitrary<Condition> {
  return fc.oneof(
    leafOn('name', ORDERED, text),
    leafOn('size', ORDERED, small, [fc.constant({ $constant: 'three' })]),
    leafOn('price', ORDERED, fc.constantFrom(0, 1, 1.5, 2.25)),
    leafOn('flag', EQUALITY, fc.boolean()),
    leafOn('kind', ORDERED, fc.constantFrom('a', 'b', 'c')),
    leafOn(
      'day',
      ORDERED,
      days.map((d) => dayOf(today, d)),
    ),
    leafOn('team', EQUALITY, fc.constantFrom(...ids.teams)),
    leafOn('person', EQUALITY, fc.constantFrom(...ids.users)),
  );
}

/** Any leaf: also the time, other fields, the user, a route's parameter and paths. */
function anyLeaf(today: Date, ids: Ids): fc.Arbitrary<Condition> {
  const time = [
    fc.constant({ now: true }),
    days.map((d) => ({ daysAgo: d })),
    fc.constant({ daysAgo: { $constant: 'week' } }),
    // Now moved by a duration, in each unit, a constant too.
    fc.integer({ min: 0, max: 72 }).map((hours) => ({ now: true, plus: { hours } })),
    fc.integer({ min: 0, max: 4000 }).map((minutes) => ({ now: true, minus: { minutes } })),
    fc.constant({ now: true, minus: { days: { $constant: 'three' } } }),
  ];
  return fc.oneof(
    literalLeaf(today, ids),
    leafOn('size', ORDERED, small, [fc.constant({ field: 'cap' })]),
    leafOn(
      'day',
      ORDERED,
      days.map((d) => dayOf(today, d)),
      time,
    ),
    leafOn(
      'at',
      ORDERED,
      days.map((d) => new Date(today.getTime() + d * DAY_MS).toISOString()),
      [...time, fc.constant({ field: 'at', minus: { minutes: 90 } }), fc.constant({ field: 'at', plus: { days: 1 } })],
    ),
    leafOn('person', EQUALITY, fc.constantFrom(...ids.users), [fc.constant({ actor: true })]),
    leafOn('kind', EQUALITY, fc.constantFrom('a', 'b'), [fc.constant({ param: 'kind' })]),
    leafOn('team.rank', ORDERED, small),
    leafOn('team.label', ORDERED, text),
    leafOn('person.level', ORDERED, small, [fc.constant({ actor: 'level' })]),
    setLeaf('crew'),
  );
}

/** A leaf on a set of users: includes the user or not, has members or not (what the spec's checks allow). */
function setLeaf(field: string): fc.Arbitrary<Condition> {
  return fc.oneof(
    fc.record({ field: fc.constant(field), op: fc.constantFrom('eq', 'ne'), value: fc.constant({ actor: 'id' }) }),
    fc.record({ field: fc.constant(field), op: fc.constantFrom('present', 'absent') }),
  ) as fc.Arbitrary<Condition>;
}

function conditionOf(leaf: fc.Arbitrary<Condition>): fc.Arbitrary<Condition> {
  const { tree } = fc.letrec<{ tree: Condition }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ all: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ any: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ not: tie('tree') }),
    ) as fc.Arbitrary<Condition>,
  }));
  return tree;
}

// ---------------------------------------------------------------- records

/** A record as a form or an import may hold it: blanks ('') as well as empty values. */
function recordOf(today: Date, ids: Ids): fc.Arbitrary<Values> {
  const maybe = <T>(value: fc.Arbitrary<T>) => fc.oneof(value, fc.constant(null), fc.constant(''));
  return fc.record({
    name: maybe(text),
    size: fc.option(small),
    cap: fc.option(small),
    price: fc.option(fc.constantFrom(0, 1, 1.5, 2.25, 3)),
    flag: fc.option(fc.boolean()),
    kind: maybe(fc.constantFrom('a', 'b', 'c')),
    day: maybe(days.map((d) => dayOf(today, d))),
    at: fc.option(fc.integer({ min: -4 * 24, max: 4 * 24 }).map((h) => new Date(today.getTime() + h * 60 * 60 * 1000))),
    team: fc.option(fc.constantFrom(...ids.teams)),
    person: fc.option(fc.constantFrom(...ids.users)),
    crew: fc.uniqueArray(fc.constantFrom(...ids.users), { maxLength: 3 }),
  });
}

/** What the write path stores: blanks are empty (rules/field-schema.ts). */
function stored(record: Values): Values {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v === '' ? null : v]));
}

function hasNot(condition: CompiledCondition): boolean {
  return JSON.stringify(condition).includes('"kind":"not"');
}

/** Only fields compared with literals and constants: what an index predicate holds. */
function isLiteralOnly(condition: CompiledCondition): boolean {
  return conditionLeaves(condition).every(
    (leaf) =>
      leaf.subject.tail === null &&
      !thing.fieldsByName[leaf.subject.field]?.joinTable &&
      (leaf.kind !== 'compare' || leaf.operand.kind === 'literal'),
  );
}

forEachDatabase('the condition language, in memory and in the database', (database) => {
  let store: Store;
  let users: number[];
  let teams: number[];

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    const levelColumn = model.users.fieldsByName.level!.column;
    const inserted = await store.db
      .insertInto(USER_TABLE)
      .values(LEVELS.map((level, i) => ({ email: `u${i}@example.test`, password_hash: 'x', [levelColumn]: level })))
      .returning('id')
      .execute();
    users = inserted.map((u) => Number(u.id));
    const team = model.entitiesByName.team!;
    const made = await store.db
      .insertInto(team.table)
      .values(TEAMS.map((t) => valuesToRow(team, t)))
      .returning('id')
      .execute();
    teams = made.map((t) => Number(t.id));
  }, 60_000);

  /**
   * Stores the records, then in one transaction (so that `now()` is the time the memory judges
   * by) reads them back with their paths' values, the rows the bound SQL of each condition
   * selects, and the value the literal predicate has on each row.
   */
  async function judge(
    records: readonly Values[],
    conditions: readonly Condition[],
    actor: Actor,
    params: Readonly<Record<string, string>>,
  ) {
    return store.db.transaction().execute(async (trx) => {
      await trx.deleteFrom(thing.table).execute();
      const rows = records.map((r) => valuesToRow(thing, stored(r)));
      const made = await trx.insertInto(thing.table).values(rows).returning('id').execute();
      const pairs = made.flatMap((row, i) => (records[i]!.crew as number[]).map((user) => ({ record_id: row.id, target_id: user })));
      if (pairs.length > 0) await trx.insertInto(thing.fieldsByName.crew!.joinTable!).values(pairs).execute();
      const now = (await sql<{ now: Date }>`select now() as now`.execute(trx)).rows[0]!.now;
      const read = await trx.selectFrom(thing.table).select(recordColumns(thing)).orderBy('id').execute();
      const loaded = read.map((row) => {
        const record = rowToRecord(thing, row) as unknown as Values;
        const team = record.team === null ? undefined : TEAMS[teams.indexOf(Number(record.team))];
        const level = record.person === null ? undefined : LEVELS[users.indexOf(Number(record.person))];
        return { ...record, 'team.rank': team?.rank, 'team.label': team?.label, 'person.level': level };
      });
      /** The value a predicate has on each row (true, false or null), in the order of the ids. */
      const valuesOf = async (predicate: RawBuilder<unknown>) =>
        (await trx.selectFrom(thing.table).select(predicate.as('holds')).orderBy('id').execute()).map((r) => r.holds as boolean | null);
      const results = [];
      for (const condition of conditions) {
        const compiled = compileCondition(condition, model.constants);
        const bound = await valuesOf(boundConditionSql(model, thing, compiled, actor, params));
        let literal: (boolean | null)[] | null = null;
        if (isLiteralOnly(compiled)) {
          const predicate = literalPredicateSql(thing, compiled);
          literal = await valuesOf(sql`(${sql.raw(predicate)})`);
        }
        results.push({ condition, compiled, bound, literal });
      }
      return { now, loaded, results };
    });
  }

  it('evaluates as the database selects, and as the index predicate holds', async () => {
    const today = new Date();
    const known: Ids = { users, teams };
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordOf(today, known), { minLength: 1, maxLength: 8 }),
        fc.array(conditionOf(anyLeaf(today, known)), { minLength: 1, maxLength: 6 }),
        fc.array(conditionOf(literalLeaf(today, known)), { minLength: 1, maxLength: 4 }),
        fc.option(fc.integer({ min: 0, max: users.length - 1 })),
        async (records, conditions, literalConditions, who) => {
          const actor: Actor =
            who === null
              ? { userId: 0, email: '', name: '', roles: ['public'], visitor: true }
              : { userId: users[who]!, email: '', name: '', roles: ['member'], fields: { level: LEVELS[who]! } };
          const context: EvalContext = {
            actorId: who === null ? null : users[who],
            actorFields: actor.fields ?? {},
            params: { kind: 'a' },
          };
          const { now, loaded, results } = await judge(records, [...conditions, ...literalConditions], actor, { kind: 'a' });
          expect(loaded).toHaveLength(records.length);
          for (const { condition, compiled, bound, literal } of results) {
            const threeValued = loaded.map((record) => holdsThreeValued(compiled, record, { ...context, now }));
            expect({ condition, threeValued }).toEqual({ condition, threeValued: bound });
            const twoValued = loaded.map((record) => evaluateCompiled(compiled, record, now, context));
            // In memory, `not` over an unknown comparison holds (SQL's `not` of null does not): the
            // two agree wherever no `not` meets an empty value.
            if (!hasNot(compiled)) expect({ condition, twoValued }).toEqual({ condition, twoValued: bound.map((v) => v === true) });
            if (literal) {
              const indexed = loaded.map((record) => holdsThreeValued(compiled, record));
              expect({ condition, indexed }).toEqual({ condition, indexed: literal });
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
