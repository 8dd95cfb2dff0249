import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import { createActor, openSyncedQuickly } from '@testing/engine/ops';
import { conditionToSql } from '../condition/bound-sql';
import { evaluateCondition } from '../condition/evaluate';
import type { Actor } from '../ground/actor';
import { createOps } from '../ops/create-ops';
import type { Ops } from '../ops/ops';
import { createScheduler } from '../scheduler/scheduler';
import { buildModel } from '../spec/build';
import type { Condition } from '../spec/types';
import { workingDaysSql } from '../store/schema/working-days';
import type { Store } from '../store/types';
import { addWorkingDays, addWorkingDaysToDate } from './working-days';

/*
 * Working days counted by the database agree with memory (time/working-days.ts): the SQL
 * functions themselves, conditions that move a field by working days, and the scheduler taking
 * automatic transitions due after a time and before a date, on a calendar with a weekend, dated
 * and yearly holidays, in a zone with daylight saving time.
 */

const model = buildModel({
  name: 'requests',
  purpose: { title: 'Requests', timeZone: 'Europe/Paris' },
  calendar: { holidays: ['12-25', '01-01', '2026-12-28'] },
  entities: {
    request: { fields: { title: { type: 'text' }, receivedAt: { type: 'datetime' }, answeredAt: { type: 'datetime' } } },
    visit: { fields: { title: { type: 'text' }, visitOn: { type: 'date' }, reportOn: { type: 'date' } } },
  },
  workflows: {
    request: {
      states: { open: { initial: true }, escalated: {} },
      transitions: { escalate: { from: 'open', to: 'escalated', allow: [], auto: { after: 'receivedAt', workingDays: 2 } } },
    },
    visit: {
      states: { booked: { initial: true }, prepared: {} },
      transitions: { prepare: { from: 'booked', to: 'prepared', allow: [], auto: { before: 'visitOn', workingDays: 1 } } },
    },
  },
  roles: { clerk: {} },
  permissions: {
    request: { clerk: { list: true, read: true, create: true } },
    visit: { clerk: { list: true, read: true, create: true } },
  },
});
const calendar = model.calendar;

// Thursdays to Tuesdays around Christmas 2026 and the spring-forward night, in UTC: days off, weekends and working days.
const INSTANTS = [
  '2026-12-23T09:00:00Z',
  '2026-12-24T23:30:00Z',
  '2026-12-26T10:00:00Z',
  '2026-12-31T22:59:59Z',
  '2027-01-01T12:00:00Z',
  '2026-03-27T01:30:00Z',
  '2026-03-28T23:00:00Z',
  '2026-10-24T00:30:00Z',
];
const COUNTS = [-3, -1, 0, 1, 2, 5];
const DATES = ['2026-12-24', '2026-12-26', '2026-12-31', '2027-01-04', '2026-03-29'];

forEachDatabase('working days', (database) => {
  let store: Store;
  let ops: Ops;
  let clerk: Actor;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    clerk = await createActor(store.db, ['clerk'], 'Cleo Clerk');
  });
  afterAll(() => store.close());

  it('the SQL functions count as memory does, for times and dates', async () => {
    // Saturdays off only: Friday 02:30 plus 1 is Sunday 25 October 02:30, which happens twice in Paris (the later one).
    const saturdays = { ...calendar, weekend: [6] };
    const noHolidays = { ...calendar, holidays: [], yearly: [] };
    const times = [
      ...INSTANTS.flatMap((t) => COUNTS.map((n) => ({ t, n, on: calendar }))),
      { t: '2026-10-23T00:30:00Z', n: 1, on: saturdays },
      { t: '2026-12-24T09:00:00Z', n: 1, on: noHolidays },
    ];
    const dates = DATES.flatMap((d) => COUNTS.map((n) => ({ d, n })));
    const columns = [
      ...times.map(({ t, n, on }, i) => sql`${workingDaysSql(sql`${t}`, n, on, 'time')} as ${sql.ref(`t${i}`)}`),
      ...dates.map(({ d, n }, i) => sql`${workingDaysSql(sql`${d}`, n, calendar, 'date')}::text as ${sql.ref(`d${i}`)}`),
    ];
    const { rows } = await sql<Record<string, unknown>>`select ${sql.join(columns)}`.execute(store.db);
    const row = rows[0]!;
    const database_ = [...times.map((_, i) => new Date(row[`t${i}`] as string | Date).toISOString()), ...dates.map((_, i) => row[`d${i}`])];
    const memory = [
      ...times.map(({ t, n, on }) => addWorkingDays(new Date(t), n, on).toISOString()),
      ...dates.map(({ d, n }) => addWorkingDaysToDate(d, n, calendar)),
    ];
    expect(database_).toEqual(memory);
  });

  it('a condition moving a field by working days selects the rows memory selects', async () => {
    const late: Condition = { field: 'answeredAt', op: 'gt', value: { field: 'receivedAt', plus: { workingDays: 2 } } };
    const soon: Condition = { field: 'reportOn', op: 'lte', value: { field: 'visitOn', plus: { workingDays: 1 } } };
    const requests = [
      ['2026-12-23T09:00:00Z', '2026-12-29T09:00:00Z'],
      ['2026-12-23T09:00:00Z', '2026-12-29T09:00:01Z'],
      ['2026-12-26T10:00:00Z', '2026-12-30T22:59:00Z'],
      ['2026-12-26T10:00:00Z', '2026-12-30T23:00:01Z'],
    ];
    for (const [receivedAt, answeredAt] of requests) await ops.create(clerk, 'request', { title: 'r', receivedAt, answeredAt });
    for (const [visitOn, reportOn] of [
      ['2026-12-24', '2026-12-29'],
      ['2026-12-24', '2026-12-30'],
      ['2026-12-31', '2027-01-04'],
      ['2026-12-31', '2027-01-05'],
    ])
      await ops.create(clerk, 'visit', { title: 'v', visitOn, reportOn });
    for (const [entityName, condition] of [
      ['request', late],
      ['visit', soon],
    ] as const) {
      const entity = model.entitiesByName[entityName]!;
      const selected = await store.db
        .selectFrom(entity.table)
        .select('id')
        .where(conditionToSql(model, entity, condition, clerk))
        .orderBy('id')
        .execute();
      const { rows: records } = await ops.list(clerk, entityName, { sort: 'id', limit: 100 });
      const inMemory = records.filter((r) => evaluateCondition(model, condition, r, new Date())).map((r) => r.id);
      expect(selected.map((r) => Number(r.id))).toEqual(inMemory);
      expect(inMemory.length).toBe(2);
    }
  });

  describe('the scheduler', () => {
    // Tuesday 29 December 2026, 10:00 in Paris: the 24th (a Thursday) was followed by Christmas, a weekend and the 28th off.
    const now = new Date('2026-12-29T09:00:00Z');

    it('takes a transition n working days after a time once they have passed, and not before', async () => {
      const received = {
        // Wed 10:00 → Thu 24 and Tue 29, 10:00: due exactly now.
        dueNow: '2026-12-23T09:00:00Z',
        // A second later: not yet.
        aSecondLater: '2026-12-23T09:00:01Z',
        // Thu 24, five calendar days ago but one working day: not yet.
        christmasEve: '2026-12-24T09:00:00Z',
        // Saturday 19th counts from Monday 21st: due Wednesday 23rd 00:00.
        weekend: '2026-12-19T14:00:00Z',
      };
      const ids: Record<string, number> = {};
      for (const [name, receivedAt] of Object.entries(received))
        ids[name] = (await ops.create(clerk, 'request', { title: name, receivedAt })).id;
      for (const [name, receivedAt] of Object.entries(received))
        expect(addWorkingDays(new Date(receivedAt), 2, calendar) <= now, name).toBe(name === 'dueNow' || name === 'weekend');

      await createScheduler({ model, db: store.db }).runOnce(now);
      const states = Object.fromEntries(
        await Promise.all(Object.entries(ids).map(async ([name, id]) => [name, (await ops.get(clerk, 'request', id)).record.state])),
      );
      expect(states).toEqual({ dueNow: 'escalated', aSecondLater: 'open', christmasEve: 'open', weekend: 'escalated' });
    });

    it('takes a transition n working days before a date once that day has come', async () => {
      const visits = { wednesday: '2026-12-30', thursday: '2026-12-31', afterNewYear: '2027-01-04', saturday: '2026-12-26' };
      const ids: Record<string, number> = {};
      for (const [name, visitOn] of Object.entries(visits)) ids[name] = (await ops.create(clerk, 'visit', { title: name, visitOn })).id;
      await createScheduler({ model, db: store.db }).runOnce(now);
      const states = Object.fromEntries(
        await Promise.all(Object.entries(ids).map(async ([name, id]) => [name, (await ops.get(clerk, 'visit', id)).record.state])),
      );
      // The working day before: Tue 29 (due), Wed 30, Thu 31 (1 January off), Thu 24 (due).
      expect(states).toEqual({ wednesday: 'prepared', thursday: 'booked', afterNewYear: 'booked', saturday: 'prepared' });
    });
  });
});
