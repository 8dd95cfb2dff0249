import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import type { Condition } from '../spec/types';
import { syncSchema } from '../store/schema/sync';
import { TALLY_TABLE } from '../store/schema/tally';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { forgetCachedReads } from '../store/write-clock';
import { dayRange, type GroupQuery } from './aggregate';
import { captureLog } from '../log';
import { asNinefoldError } from '../errors/ninefold-error';
import { widgetQuery } from '../spec/screens/home';
import type { WidgetModel } from '../spec/screens/home-model';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, ninefoldError, openSyncedQuickly, testSpec } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';

/**
 * The test helpdesk with a home that sums a number and charts two times (kept as running totals),
 * its customers seeing their own tickets only (`own`: counted from running totals per owner; the
 * helpdesk's own customers also see their organization's, counted from the rows).
 */
const customer = testSpec.permissions!.ticket!.customer;
const model = buildModel({
  ...testSpec,
  permissions: {
    ...testSpec.permissions,
    ticket: { ...testSpec.permissions!.ticket, customer: { ...customer, list: { own: 'requester' }, read: { own: 'requester' } } },
  },
  screens: {
    ...testSpec.screens,
    home: {
      widgets: [
        ...(testSpec.screens?.home?.widgets ?? []),
        { kind: 'counts', entity: 'contact', by: 'active', sum: 'balance' },
        { kind: 'counts', entity: 'contact', by: 'employer' },
      ],
    },
  },
});

/** Always true, and a condition: forces the count over the rows in scope instead of the running totals. */
const EVERY: Condition = { field: 'id', op: 'gt', value: 0 };
const DAY_MS = 86_400_000;

forEachDatabase('ops: home numbers (groupTotals, perDay) and their running totals', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let agent: Actor;
  let carl: Actor;
  let olga: Actor;

  /** The numbers as a plain object, for comparing the running totals with a count of the rows. */
  async function byValue(actor: Actor, entity: string, query: GroupQuery = {}) {
    const totals = await ops.groupTotals(actor, entity, query);
    return { total: totals.total, groups: Object.fromEntries(totals.groups.map((g) => [g.value ?? '(none)', g.amount])) };
  }

  /** Running totals and a fresh count of the rows agree, for every actor and dimension tallied. */
  async function expectTalliesRight() {
    for (const actor of [admin, agent, carl, olga]) {
      for (const by of [undefined, 'state', 'priority']) {
        const query = by ? { by } : {};
        expect(await byValue(actor, 'ticket', query), `${actor.name} by ${by}`).toEqual(
          await byValue(actor, 'ticket', { ...query, where: EVERY }),
        );
      }
      for (const field of ['createdAt', 'resolvedAt']) {
        expect(await ops.perDay(actor, 'ticket', { field, days: 40 })).toEqual(
          await ops.perDay(actor, 'ticket', { field, days: 40, where: EVERY }),
        );
      }
    }
    expect(await byValue(admin, 'contact', { by: 'active', sum: 'balance' })).toEqual(
      await byValue(admin, 'contact', { by: 'active', sum: 'balance', where: EVERY }),
    );
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Ada Admin');
    agent = await createActor(store.db, ['agent'], 'Grace Agent');
    carl = await createActor(store.db, ['customer'], 'Carl Customer');
    olga = await createActor(store.db, ['customer'], 'Olga Other');
    for (let i = 0; i < 5; i++) {
      const ticket = await ops.create(carl, 'ticket', { subject: `Carl's problem ${i}` });
      await ops.update(agent, 'ticket', ticket.id, { priority: i < 2 ? 'high' : 'low' }, ticket.version);
    }
    for (let i = 0; i < 3; i++) await ops.create(olga, 'ticket', { subject: `Olga's problem ${i}` });
  });

  describe('counts per value', () => {
    it('count what each viewer may list: an agent every ticket, a customer their own', async () => {
      expect(await byValue(agent, 'ticket', { by: 'state' })).toEqual({ total: 8, groups: { new: 8 } });
      expect(await byValue(agent, 'ticket', { by: 'priority' })).toEqual({ total: 8, groups: { high: 2, low: 3, normal: 3 } });
      expect(await byValue(carl, 'ticket', { by: 'priority' })).toEqual({ total: 5, groups: { high: 2, low: 3 } });
      expect(await byValue(olga, 'ticket', { by: 'state' })).toEqual({ total: 3, groups: { new: 3 } });
      expect(await byValue(olga, 'ticket')).toEqual({ total: 3, groups: {} });
    });

    it('apply a condition that may name the viewer, on top of the scope', async () => {
      const mine: Condition = { field: 'requester', op: 'eq', value: { actor: true } };
      expect(await byValue(carl, 'ticket', { by: 'priority', where: mine })).toEqual({ total: 5, groups: { high: 2, low: 3 } });
      expect(await byValue(agent, 'ticket', { by: 'priority', where: mine })).toEqual({ total: 0, groups: {} });
      expect(await byValue(agent, 'ticket', { by: 'priority', where: { field: 'priority', op: 'ne', value: 'low' } })).toEqual({
        total: 5,
        groups: { high: 2, normal: 3 },
      });
    });

    it('refuse a field the viewer may not read (FORBIDDEN_FIELD), in `by`, `sum` and the condition', async () => {
      expect((await ninefoldError(ops.groupTotals(carl, 'ticket', { by: 'assignee' }))).code).toBe('FORBIDDEN_FIELD');
      expect(
        (await ninefoldError(ops.groupTotals(carl, 'ticket', { by: 'state', where: { field: 'assignee', op: 'present' } }))).code,
      ).toBe('FORBIDDEN_FIELD');
      expect(
        (await ninefoldError(ops.perDay(carl, 'ticket', { field: 'createdAt', days: 7, where: { field: 'organization', op: 'absent' } })))
          .code,
      ).toBe('FORBIDDEN_FIELD');
      expect((await ninefoldError(ops.groupTotals(carl, 'contact', { by: 'active', sum: 'balance' }))).code).toBe('FORBIDDEN');
    });

    it('say beforehand, refusing nothing and logging nothing, which of those queries would be refused', async () => {
      const { result, lines } = await captureLog(async () => [
        ops.mayQuery(carl, 'ticket', { fields: ['assignee'] }),
        ops.mayQuery(carl, 'ticket', { fields: ['state'], where: { field: 'assignee', op: 'present' } }),
        ops.mayQuery(carl, 'ticket', { fields: ['createdAt'], where: { field: 'organization', op: 'absent' } }),
        ops.mayQuery(carl, 'contact', { fields: ['active', 'balance'] }),
        ops.mayQuery(carl, 'ticket', {
          fields: ['priority', 'createdAt'],
          where: { field: 'requester', op: 'eq', value: { actor: true } },
        }),
        ops.mayQuery(agent, 'ticket', { fields: ['assignee'], where: { field: 'organization', op: 'absent' } }),
      ]);
      expect(result).toEqual([false, false, false, false, true, true]);
      expect(lines).toEqual([]);
    });

    it("agree with the home's widgets as they run: asked false exactly where the widget's query is refused", async () => {
      const widgets = model.home?.widgets ?? [];
      expect(widgets.length).toBeGreaterThan(2);
      const run = (actor: Actor, widget: WidgetModel) => {
        switch (widget.kind) {
          case 'counts':
            return ops.groupTotals(actor, widget.entity, {
              by: widget.by,
              ...(widget.sum ? { sum: widget.sum } : {}),
              ...(widget.where ? { where: widget.where } : {}),
            });
          case 'list':
            return ops.list(actor, widget.entity, {
              sort: widget.sort,
              limit: widget.limit,
              ...(widget.where ? { where: widget.where } : {}),
            });
          case 'chart':
            return Promise.all(widget.series.map((s) => ops.perDay(actor, widget.entity, { field: s.field, days: widget.days })));
        }
      };
      const refused: string[] = [];
      for (const actor of [admin, agent, carl]) {
        for (const widget of widgets) {
          const asked = ops.mayQuery(actor, widget.entity, widgetQuery(widget));
          const outcome = await run(actor, widget).then(
            () => true,
            (error: unknown) => (asNinefoldError(error)?.code?.startsWith('FORBIDDEN') ? false : Promise.reject(error)),
          );
          expect(asked, `${actor.name}: ${widget.title}`).toBe(outcome);
          if (!outcome) refused.push(`${actor.name}: ${widget.title}`);
        }
      }
      // The customer's home has widgets that are not for them (the assignee is hidden from customers); the administrator's has none.
      expect(refused).toContain('Carl Customer: Needs my action');
      expect(refused.filter((line) => line.startsWith('Ada'))).toEqual([]);
    });

    it('sum a number per value, and title references the viewer may read', async () => {
      const acme = await ops.create(admin, 'organization', { name: 'Acme' });
      await ops.create(admin, 'contact', { name: 'Ann', balance: '10.50', active: true, employer: acme.id });
      await ops.create(admin, 'contact', { name: 'Bob', balance: '4.25', active: true, employer: acme.id });
      await ops.create(admin, 'contact', { name: 'Cid', balance: '100', active: false });
      expect(await byValue(admin, 'contact', { by: 'active', sum: 'balance' })).toEqual({
        total: 114.75,
        groups: { true: 14.75, false: 100 },
      });
      const employers = await ops.groupTotals(admin, 'contact', { by: 'employer' });
      expect(employers.groups).toEqual(
        expect.arrayContaining([
          { value: String(acme.id), amount: 2 },
          { value: null, amount: 1 },
        ]),
      );
      expect(employers.titles).toEqual({ [acme.id]: 'Acme' });
    });
  });

  describe('per day', () => {
    it('count records per day of a datetime field, every day of the range included', async () => {
      const range = dayRange(3);
      const agentDays = await ops.perDay(agent, 'ticket', { field: 'createdAt', days: 3 });
      expect(agentDays).toEqual([
        { day: range[0], count: 0 },
        { day: range[1], count: 0 },
        { day: range[2], count: 8 },
      ]);
      // Two of Olga's tickets moved back in time (as an import would): yesterday and long ago.
      const olgas = (await ops.list(olga, 'ticket', { sort: 'id' })).rows;
      await sql`update ticket set created_at = created_at - interval '1 day' where id = ${olgas[0]!.id}`.execute(store.db);
      await sql`update ticket set created_at = created_at - interval '90 days' where id = ${olgas[1]!.id}`.execute(store.db);
      expect((await ops.perDay(olga, 'ticket', { field: 'createdAt', days: 3 })).map((d) => d.count)).toEqual([0, 1, 1]);
      expect((await ops.perDay(agent, 'ticket', { field: 'createdAt', days: 3 })).map((d) => d.count)).toEqual([0, 1, 6]);
      expect((await ops.perDay(carl, 'ticket', { field: 'createdAt', days: 3 })).map((d) => d.count)).toEqual([0, 0, 5]);
    });

    it('leave out records without the time', async () => {
      const resolved = (await ops.perDay(agent, 'ticket', { field: 'resolvedAt', days: 30 })).reduce((sum, d) => sum + d.count, 0);
      expect(resolved).toBe(0);
    });
  });

  describe('running totals', () => {
    it('stay right across create, update, transitions, delete and rollbacks', async () => {
      const ticket = await ops.create(carl, 'ticket', { subject: 'Printer jammed' });
      let current = await ops.update(agent, 'ticket', ticket.id, { priority: 'urgent', assignee: agent.userId }, ticket.version);
      current = await ops.transition(agent, 'ticket', current.id, 'start', { version: current.version });
      current = await ops.transition(agent, 'ticket', current.id, 'resolve', { version: current.version });
      await expectTalliesRight();
      expect((await byValue(agent, 'ticket', { by: 'state' })).groups.resolved).toBe(1);
      expect((await ops.perDay(carl, 'ticket', { field: 'resolvedAt', days: 2 })).map((d) => d.count)).toEqual([0, 1]);

      // A refused write and a rolled-back transaction leave the totals as they were.
      const before = await byValue(agent, 'ticket', { by: 'state' });
      expect((await ninefoldError(ops.update(agent, 'ticket', current.id, { priority: 'low' }, 1))).code).toBe('STALE_VERSION');
      await expect(
        store.db.transaction().execute(async (trx) => {
          await sql`update ticket set state = 'closed'`.execute(trx);
          await sql`delete from ticket where requester = ${olga.userId}`.execute(trx);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await byValue(agent, 'ticket', { by: 'state' })).toEqual(before);

      // A bulk statement (as the seed writes) and deletes.
      await sql`update ticket set priority = 'low' where requester = ${carl.userId}`.execute(store.db);
      await ops.delete(admin, 'ticket', current.id, current.version);
      await expectTalliesRight();
      expect(await byValue(carl, 'ticket', { by: 'priority' })).toEqual({ total: 5, groups: { low: 5 } });
    });

    it('are recounted from the rows when the spec changes what is tallied, and cleared by TRUNCATE', async () => {
      await sql`update ${sql.table(TALLY_TABLE)} set amount = amount + 1000`.execute(store.db);
      // The numbers do come from the running totals, for everyone and per owner alike.
      for (const actor of [agent, carl])
        expect((await byValue(actor, 'ticket')).total).toBe((await byValue(actor, 'ticket', { where: EVERY })).total + 1000);
      expect((await ops.perDay(olga, 'ticket', { field: 'createdAt', days: 1 }))[0]!.count).toBeGreaterThan(1000);
      // As if the spec had changed what is tallied: the next sync recounts from the rows.
      await sql`delete from nf_meta where key in ('tally', 'schema')`.execute(store.db);
      expect((await syncSchema(store, model)).changed).toBe(true);
      expect((await syncSchema(store, model)).changed).toBe(false);
      await expectTalliesRight();
      // Cascade: the comments' attachments (a join table) hold keys to them.
      await sql`truncate comment cascade`.execute(store.db);
      expect(await byValue(admin, 'comment')).toEqual({ total: 0, groups: {} });
    });

    it('make a number cost the same few statements whatever the number of rows', async () => {
      const statementsOf = async (run: () => Promise<unknown>) => {
        forgetCachedReads(store.db);
        const before = store.statementCount();
        await run();
        return store.statementCount() - before;
      };
      const home = () =>
        Promise.all([
          ops.groupTotals(agent, 'ticket', { by: 'state' }),
          ops.groupTotals(carl, 'ticket', { by: 'priority' }),
          ops.perDay(agent, 'ticket', { field: 'createdAt', days: 30 }),
        ]);
      const small = await statementsOf(home);
      await sql`insert into ticket (subject, priority, requester, state, created_at) select 'Bulk ' || g, 'normal', ${carl.userId}, 'new', now() - g * interval '1 hour' from generate_series(1, 500) g`.execute(
        store.db,
      );
      expect(await statementsOf(home)).toBe(small);
      expect(small).toBe(3);
      expect((await byValue(carl, 'ticket')).total).toBe(505);
      const days = await ops.perDay(agent, 'ticket', { field: 'createdAt', days: 30 });
      expect(days.reduce((sum, d) => sum + d.count, 0)).toBe(507);
      expect(Date.parse(`${days[29]!.day}T00:00:00Z`) - Date.parse(`${days[0]!.day}T00:00:00Z`)).toBe(29 * DAY_MS);
    });
  });
});
