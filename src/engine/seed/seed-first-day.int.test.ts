import { beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import publication from '../../../examples/publication/ninefold.spec';
import type { Actor } from '../ground/actor';
import { userFieldValues } from '../identity/user-fields';
import { createOps } from '../ops/create-ops';
import type { Ops } from '../ops/ops';
import { buildModel } from '../spec/build';
import type { AppModel } from '../spec/model';
import { openSyncedQuickly } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { seedDemoData } from './seed-demo-data';

/*
 * A demo seeded today and opened at once: open tickets mostly within their SLA (a few due soon,
 * a few overdue by hours or days, none by months), and the README's demo accounts able to work:
 * customer1 opens a ticket, editor1 reads what writer1 wrote.
 */

const quiet = { start: () => {}, advance: () => {}, stop: () => {} };
const HOUR_MS = 60 * 60 * 1000;
type Row = Record<string, unknown>;
const time = (value: unknown) => new Date(value as Date).getTime();

/** The demo account as the doors would resolve it: roles and user fields. */
async function demoActor(model: AppModel, store: Store, email: string): Promise<Actor> {
  const row = (await store.db.selectFrom('nf_user').selectAll().where('email', '=', email).executeTakeFirstOrThrow()) as Row;
  return {
    userId: Number(row.id),
    email,
    name: String(row.name),
    roles: row.roles as string[],
    fields: userFieldValues(model, row),
  };
}

forEachDatabase('seed: the helpdesk on day one', (database) => {
  const model = buildModel(helpdesk);
  let store: Store;
  let ops: Ops;
  let tickets: Row[];
  let seededAt: number;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    seededAt = Date.now();
    await seedDemoData(model, store.db, 200, quiet);
    ops = createOps({ model, db: store.db });
    tickets = (await store.db.selectFrom('ticket').selectAll().execute()) as Row[];
  }, 180_000);

  it('has open tickets mostly due ahead, some within the day, a few overdue by no more than days', () => {
    const open = tickets.filter((t) => ['new', 'open', 'pending'].includes(String(t.state)));
    const ahead = open.map((t) => time(t.sla_due_at) - seededAt);
    const overdue = ahead.filter((ms) => ms < 0);
    expect(open.length).toBeGreaterThan(10);
    expect(overdue.length).toBeGreaterThan(0);
    expect(overdue.length).toBeLessThan(open.length * 0.35);
    expect(Math.min(...ahead)).toBeGreaterThan(-7 * 24 * HOUR_MS);
    expect(ahead.filter((ms) => ms >= 0 && ms < 24 * HOUR_MS).length).toBeGreaterThan(0);
  });

  it('dates closed tickets in the past', () => {
    const closed = tickets.filter((t) => t.state === 'closed');
    expect(closed.length).toBeGreaterThan(0);
    for (const t of closed) {
      expect(time(t.resolved_at ?? t.updated_at)).toBeLessThanOrEqual(time(t.updated_at));
      expect(time(t.updated_at)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('lets the first demo customer open a ticket', async () => {
    const customer1 = await demoActor(model, store, 'customer1@demo.ninefold.test');
    const created = await ops.create(customer1, 'ticket', { subject: 'The export button does nothing', description: 'Since today.' });
    expect(created.requester).toBe(customer1.userId);
  });
});

forEachDatabase('seed: the newsroom on day one', (database) => {
  const model = buildModel(publication);
  let store: Store;
  let ops: Ops;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    await seedDemoData(model, store.db, 80, quiet);
    ops = createOps({ model, db: store.db });
  }, 180_000);

  describe("the README's demo accounts", () => {
    it('put writer1 and editor1 in one team, so that editor1 reads and may publish what writer1 wrote', async () => {
      const writer1 = await demoActor(model, store, 'writer1@demo.ninefold.test');
      const editor1 = await demoActor(model, store, 'editor1@demo.ninefold.test');
      expect(writer1.fields?.team).not.toBeNull();
      expect(editor1.fields?.team).toBe(writer1.fields?.team);
      const written = await store.db.selectFrom('article').select('id').where('author', '=', writer1.userId).execute();
      expect(written.length).toBeGreaterThan(0);
      for (const { id } of written) {
        const { record } = await ops.get(editor1, 'article', Number(id));
        expect(record.author).toBe(writer1.userId);
      }
    });
  });
});
