import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentity } from '../identity/identity';
import { createOps } from '../ops/create-ops';
import { seedEmptyPglite, testModel, testSpec } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { DEMO_PASSWORD, seedDemoData } from '../seed/seed-demo-data';
import { buildModel } from '../spec/build';
import type { AppModel } from '../spec/model';
import { openStore } from '../store/open-store';
import { introspectSchema } from '../store/schema/introspect';
import { syncSchema } from '../store/schema/sync';
import { createTestDatabase, databaseTargets, forEachDatabase, type TestDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { BackupRefused } from './backup-refused';
import { exportBackup } from './export';
import { BATCH_ROWS, type BackupHeader } from './format';
import { importBackup } from './import';
import { COPIED_SYSTEM_TABLES, SKIPPED_TABLES } from './tables';
import { SYSTEM_ACTOR } from '../identity/system-actor';
import { actorOfAccount } from '@testing/engine/accounts';

const quiet = { start: () => {}, advance: () => {}, stop: () => {} };

async function exported(store: Store): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of exportBackup(store.db, { kind: store.kind })) lines.push(line);
  return lines;
}

async function* linesOf(lines: readonly string[]): AsyncGenerator<string> {
  yield* lines;
}

/** The lines with the header's moment and database kind left out: what must survive a round trip. */
function comparable(lines: readonly string[]): string[] {
  const header = JSON.parse(lines[0]!) as BackupHeader;
  return [JSON.stringify({ ...header, exportedAt: null, database: null }), ...lines.slice(1)];
}

/** A fresh, empty database of the suite's kind with the schema of `model`. */
async function freshStore(database: TestDatabase, model: AppModel, opened: Store[]): Promise<Store> {
  const options = await database.freshOptions();
  if (database.kind === 'pglite') await seedEmptyPglite(options.dataDir);
  const store = await openStore(options);
  opened.push(store);
  await syncSchema(store, model);
  return store;
}

async function rowCounts(store: Store): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of (await introspectSchema(store.db)).tables) {
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from ${sql.table(table.name)}`.execute(store.db);
    counts[table.name] = Number(rows[0]!.n);
  }
  return counts;
}

async function refusal(promise: Promise<unknown>): Promise<BackupRefused> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BackupRefused) return error;
    throw error;
  }
  expect.fail('the import was not refused');
}

async function adminActor(store: Store): Promise<Actor> {
  const row = await store.db
    .selectFrom('nf_user')
    .select(['id', 'email', 'name', 'roles'])
    .where('roles', '@>', sql<string[]>`array['admin']`)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return { userId: Number(row.id), email: row.email as string, name: row.name as string, roles: row.roles as string[] };
}

forEachDatabase('backup: export and import round-trip', (database) => {
  const model = testModel;
  const opened: Store[] = [];
  let source: Store;
  let backup: string[];
  let target: Store;
  let deletedTicket: number;

  beforeAll(async () => {
    source = await freshStore(database, model, opened);
    const identity = createIdentity(source.db, Object.keys(model.roles));
    await seedDemoData(model, source.db, 120, quiet);
    // What the seeder does not make: an administrator with preferences, a token, an invitation,
    // a disabled account, a saved view, a record with every field type, and a deleted record.
    const admin = await identity.createUser(SYSTEM_ACTOR, {
      email: 'root@example.com',
      password: 'a long admin password',
      name: 'Root',
      roles: ['admin'],
    });
    await identity.setPreferences(admin.id, { theme: 'dark' });
    await identity.createApiToken(admin.id, { name: 'ci', expiresAt: new Date('2031-02-03T04:05:06.789Z') });
    await identity.createInvite(actorOfAccount(admin), { email: 'newcomer@example.com', roles: ['agent'] });
    const leaver = await identity.createUser(SYSTEM_ACTOR, {
      email: 'leaver@example.com',
      password: 'another long password',
      roles: ['agent'],
    });
    await identity.disableUser(SYSTEM_ACTOR, leaver.id);
    await source.db
      .insertInto('nf_saved_view')
      .values({
        owner_id: admin.id,
        entity: 'ticket',
        name: 'Mine',
        state: JSON.stringify({ filters: { state: ['open'] }, q: 'ünïcode "quoted"' }),
        shared_with: sql`array['agent']`,
      })
      .execute();
    const ops = createOps({ model, db: source.db });
    const actor: Actor = { userId: admin.id, email: admin.email, name: admin.name, roles: admin.roles };
    await ops.create(actor, 'contact', {
      name: 'Zoë "Line\nbreak"',
      email: 'zoe@example.com',
      website: 'https://example.com/a?b=c',
      visits: 7,
      balance: '123456.70',
      birthday: '1990-02-28',
      active: false,
      notes: '=SUM(A1) <script>x</script>',
    });
    const doomed = await ops.create(actor, 'organization', { name: 'Short-lived Ltd' });
    await ops.delete(actor, 'organization', doomed.id);
    deletedTicket = doomed.id;
    // Notifications' state: choices, a watch, an outbox row with its in-app notification and e-mail, a reminder, a digest, the link key.
    await source.db
      .insertInto('nf_notify_preference')
      .values({ user_id: admin.id, kind: 'ticketAssigned', in_app: false, email: 'digest' })
      .execute();
    await source.db.insertInto('nf_watch').values({ user_id: admin.id, entity: 'ticket', record_id: 1, mode: 'watch' }).execute();
    const outbox = await source.db
      .insertInto('nf_outbox')
      .values({
        entity: 'ticket',
        record_id: 1,
        kind: 'update',
        notifications: sql`array['ticketAssigned']`,
        users: sql`'{"assignee":[1]}'::jsonb`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const delivery = { user_id: admin.id, outbox_id: outbox.id, kind: 'ticketAssigned', entity: 'ticket', record_id: 1 };
    await source.db
      .insertInto('nf_notification')
      .values({ ...delivery, title: 'Ticket 1 was assigned to you' })
      .execute();
    await source.db
      .insertInto('nf_mail')
      .values({ ...delivery, to_address: admin.email, subject: 'Assigned', body_text: 'Ticket 1', digest: true })
      .execute();
    await source.db
      .insertInto('nf_reminder')
      .values({ notification: 'dueSoon', record_id: 1, at: new Date('2031-01-01T10:00:00Z') })
      .execute();
    await source.db
      .insertInto('nf_digest')
      .values({ user_id: admin.id, day: sql`'2031-01-01'::date` })
      .execute();
    await source.db.insertInto('nf_notify_secret').values({ name: 'unsubscribe', value: 'a-key-kept-across-a-restore' }).execute();
    // Microseconds that a JavaScript Date would drop: the backup keeps what the database holds.
    await sql`update nf_user set updated_at = '2030-01-02 03:04:05.123+00' where id = ${admin.id}`.execute(source.db);

    backup = await exported(source);
    target = await freshStore(database, model, opened);
    await importBackup(target.db, linesOf(backup), { model });
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled(opened.map((s) => s.close()));
  });

  it('names every table of the database as copied or skipped (a new table must be listed in tables.ts)', async () => {
    // The spec's tables: one per entity, and the join table of each set (the helpdesk's attachments).
    const entityTables = new Set(model.entities.flatMap((e) => [e.table, ...e.fields.flatMap((f) => (f.joinTable ? [f.joinTable] : []))]));
    const unlisted = (await introspectSchema(source.db)).tables
      .map((t) => t.name)
      .filter((name) => !entityTables.has(name) && !COPIED_SYSTEM_TABLES.includes(name) && !Object.hasOwn(SKIPPED_TABLES, name));
    expect(unlisted).toEqual([]);
    const header = JSON.parse(backup[0]!) as BackupHeader;
    expect(header.tables.map((t) => t.name)).not.toContain('nf_session');
    expect(header.tables.map((t) => t.name)).toEqual(expect.arrayContaining([...COPIED_SYSTEM_TABLES, ...entityTables]));
    // Users come before everything that refers to them, organizations before tickets, tickets before comments.
    const order = header.tables.map((t) => t.name);
    for (const referring of ['nf_api_token', 'nf_saved_view', 'nf_notification', 'nf_watch', 'nf_mail', 'ticket']) {
      expect(order.indexOf('nf_user')).toBeLessThan(order.indexOf(referring));
    }
    expect(order.indexOf('organization')).toBeLessThan(order.indexOf('ticket'));
    expect(order.indexOf('ticket')).toBeLessThan(order.indexOf('comment'));
  });

  it("keeps the notifications' state, and the outbox's ids go on after the restored ones", async () => {
    const notifyTables = COPIED_SYSTEM_TABLES.filter(
      (t) => !['nf_user', 'nf_api_token', 'nf_invite', 'nf_saved_view', 'nf_audit'].includes(t),
    );
    for (const table of notifyTables) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(target.db);
      expect(rows[0]!.n, table).toBeGreaterThan(0);
    }
    // Read, not drawn: the next test compares this database's export with the original's.
    const restored = await target.db
      .selectFrom('nf_outbox')
      .select(sql<number>`max(id)::int`.as('id'))
      .executeTakeFirstOrThrow();
    const { rows } = await sql<{ last: string | number }>`select last_value as last from pg_sequences
      where quote_ident(schemaname) || '.' || quote_ident(sequencename) = pg_get_serial_sequence('nf_outbox', 'id')`.execute(target.db);
    expect(Number(rows[0]!.last)).toBeGreaterThanOrEqual(Number(restored.id));
  });

  it('exports the restored database line for line as the original', async () => {
    const again = await exported(target);
    expect(again.length).toBe(backup.length);
    expect(comparable(again)).toEqual(comparable(backup));
    const header = JSON.parse(backup[0]!) as BackupHeader;
    expect(header.tables.find((t) => t.name === 'ticket')?.rows).toBe(120);
    expect(backup.at(-1)).toBe(JSON.stringify({ end: true, rows: backup.length - 2 - header.tables.length }));
  });

  it('keeps every row, the running totals included, and the microseconds', async () => {
    const before = await rowCounts(source);
    const after = await rowCounts(target);
    for (const name of Object.keys(before)) {
      if (name === 'nf_session' || name === 'nf_meta' || name === 'nf_sign_in_attempt' || name === 'nf_setup_code') continue;
      expect(after[name], name).toBe(before[name]);
    }
    const tally = (store: Store) =>
      store.db
        .selectFrom('nf_tally')
        .selectAll()
        .orderBy('entity')
        .orderBy('owner_field')
        .orderBy('owner')
        .orderBy('dimension')
        .orderBy('value')
        .orderBy('measure')
        .execute();
    expect(await tally(target)).toEqual(await tally(source));
    const micro = (store: Store) =>
      sql<{
        t: string;
      }>`select to_char(updated_at at time zone 'UTC', 'HH24:MI:SS.US') as t from nf_user where email = 'root@example.com'`.execute(
        store.db,
      );
    expect((await micro(target)).rows[0]!.t).toBe('03:04:05.123000');
  });

  it('reads back through ops: the same records and history, and accounts that sign in with their passwords', async () => {
    const sourceOps = createOps({ model, db: source.db });
    const targetOps = createOps({ model, db: target.db });
    const actor = await adminActor(target);
    const ticket = (await sourceOps.list(actor, 'ticket', { limit: 5 })).rows.at(-1)!;
    expect(await targetOps.get(actor, 'ticket', ticket.id)).toEqual(await sourceOps.get(actor, 'ticket', ticket.id));
    const history = await targetOps.history(actor, 'ticket', ticket.id);
    expect(history.entries.length).toBeGreaterThan(0);
    expect(history).toEqual(await sourceOps.history(actor, 'ticket', ticket.id));
    const contact = (await targetOps.list(actor, 'contact', {})).rows[0];
    expect(contact).toMatchObject({ name: 'Zoë "Line\nbreak"', balance: '123456.70', birthday: '1990-02-28', active: false, visits: 7 });

    const identity = createIdentity(target.db, Object.keys(model.roles));
    expect(await identity.verifyCredentials('root@example.com', 'a long admin password')).toMatchObject({ email: 'root@example.com' });
    expect(await identity.verifyCredentials('leaver@example.com', 'another long password')).toBeNull();
    const root = (await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.email === 'root@example.com')!;
    expect(await identity.preferencesOf(root.id)).toMatchObject({ theme: 'dark' });
    const demo = (await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.roles.includes('agent') && !u.disabled)!;
    expect(await identity.verifyCredentials(demo.email, DEMO_PASSWORD)).toMatchObject({ id: demo.id });
  });

  it('continues the ids after the largest, and after those of deleted records', async () => {
    const targetOps = createOps({ model, db: target.db });
    const actor = await adminActor(target);
    const maxTicket = await target.db
      .selectFrom('ticket')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirstOrThrow();
    const requester = await target.db
      .selectFrom('nf_user')
      .select('id')
      .where('roles', '@>', sql<string[]>`array['customer']`)
      .executeTakeFirstOrThrow();
    const created = await targetOps.create(actor, 'ticket', {
      subject: 'After the restore',
      requester: Number(requester.id),
      priority: 'normal',
    });
    expect(created.id).toBe(Number(maxTicket.m) + 1);
    const organization = await targetOps.create(actor, 'organization', { name: 'After the restore' });
    expect(organization.id).toBe(deletedTicket + 1);
  });

  it('refuses to import into a database that has rows, and changes nothing', async () => {
    const before = await rowCounts(target);
    const error = await refusal(importBackup(target.db, linesOf(backup), { model }));
    expect(error.message).toMatch(/not empty.*nf_\w+ has rows/);
    expect(await rowCounts(target)).toEqual(before);
  });

  describe('a damaged backup is refused with its line, and nothing is written', () => {
    let empty: Store;
    let emptyCounts: Record<string, number>;

    beforeAll(async () => {
      empty = await freshStore(database, model, opened);
      emptyCounts = await rowCounts(empty);
    }, 60_000);

    const ticketSection = () => backup.indexOf(JSON.stringify({ table: 'ticket' }));

    async function expectRefusedAt(lines: readonly string[], line: number | null, message: RegExp): Promise<void> {
      const error = await refusal(importBackup(empty.db, linesOf(lines), { model }));
      expect(error.line).toBe(line);
      expect(error.message).toMatch(message);
      expect(await rowCounts(empty)).toEqual(emptyCounts);
    }

    it('bad JSON', async () => {
      const at = ticketSection() + 3;
      await expectRefusedAt(
        backup.map((l, i) => (i === at ? l.slice(0, -2) : l)),
        at + 1,
        /not valid JSON/,
      );
    });

    it('a value the column cannot hold', async () => {
      const at = ticketSection() + 2;
      const header = JSON.parse(backup[0]!) as BackupHeader;
      const versionIndex = header.tables.find((t) => t.name === 'ticket')!.columns.indexOf('version');
      const row = JSON.parse(backup[at]!) as unknown[];
      row[versionIndex] = 'three';
      await expectRefusedAt(
        backup.map((l, i) => (i === at ? JSON.stringify(row) : l)),
        at + 1,
        /row of ticket was refused.*integer/,
      );
    });

    it('a row with a value too many', async () => {
      const at = ticketSection() + 1;
      await expectRefusedAt(
        backup.map((l, i) => (i === at ? l.replace(/]$/, ',1]') : l)),
        at + 1,
        /values, and the table ticket has/,
      );
    });

    it('a column this database does not have', async () => {
      const header = JSON.parse(backup[0]!) as BackupHeader;
      const changed = {
        ...header,
        tables: header.tables.map((t) =>
          t.name === 'ticket' ? { ...t, columns: [...t.columns, 'bogus'], types: [...t.types, 'text'] } : t,
        ),
      };
      const start = ticketSection();
      const lines = backup.map((l, i) =>
        i === 0 ? JSON.stringify(changed) : i > start && i <= start + 120 ? l.replace(/]$/, ',null]') : l,
      );
      await expectRefusedAt(lines, null, /column ticket\.bogus that this database does not have/);
    });

    it('another spec', async () => {
      const header = JSON.parse(backup[0]!) as BackupHeader;
      await expectRefusedAt([JSON.stringify({ ...header, spec: 'crm' }), ...backup.slice(1)], null, /spec "crm"/);
    });

    it('a file cut short', async () => {
      await expectRefusedAt(backup.slice(0, -20), null, /without its end line/);
    });

    it('a file that is not a backup', async () => {
      await expectRefusedAt(['subject,priority', 'a,b'], 1, /not valid JSON/);
      await expectRefusedAt(['{"hello":"world"}'], 1, /not a Ninefold backup/);
    });
  });
});

/** A table that refers to itself, with a row that points at a later one: ordering alone cannot load it. */
const selfSpec = {
  ...testSpec,
  entities: {
    ...testSpec.entities,
    task: {
      label: 'Task',
      titleField: 'title',
      fields: { title: { type: 'text', required: true }, parent: { type: 'reference', to: 'task' } },
    },
  },
} as typeof testSpec;

forEachDatabase('backup: a table that refers to itself', (database) => {
  const model = buildModel(selfSpec);
  const opened: Store[] = [];
  afterAll(async () => {
    await Promise.allSettled(opened.map((s) => s.close()));
  });

  it('restores rows that point at later rows, and leaves the constraint as it was', async () => {
    const source = await freshStore(database, model, opened);
    const identity = createIdentity(source.db, Object.keys(model.roles));
    const admin = await identity.createUser(SYSTEM_ACTOR, {
      email: 'root@example.com',
      password: 'a long admin password',
      roles: ['admin'],
    });
    const actor: Actor = { userId: admin.id, email: admin.email, name: admin.name, roles: admin.roles };
    const ops = createOps({ model, db: source.db });
    // More rows than a batch: the first row's parent arrives in a later INSERT statement.
    await ops.createMany(
      actor,
      'task',
      Array.from({ length: BATCH_ROWS + 1 }, (_, i) => ({ title: `Task ${i + 1}` })),
    );
    const first = await ops.get(actor, 'task', 1);
    await ops.update(actor, 'task', 1, { parent: BATCH_ROWS + 1 }, first.record.version);
    const backup = await exported(source);

    const target = await freshStore(database, model, opened);
    await importBackup(target.db, linesOf(backup), { model });
    expect(comparable(await exported(target))).toEqual(comparable(backup));
    const deferrable = await sql<{ n: string }>`select count(*)::text as n from pg_constraint where condeferrable`.execute(target.db);
    expect(deferrable.rows[0]!.n).toBe('0');
    // The schema still matches the spec exactly: nothing for a sync to change.
    expect((await syncSchema(target, model)).changed).toBe(false);
  }, 120_000);
});

describe.runIf(databaseTargets().includes('postgres'))('backup: from PGlite to PostgreSQL and back', () => {
  // Made when the suite runs: a skipped suite's body still runs, and there may be no PostgreSQL.
  let pglite: TestDatabase;
  let postgres: TestDatabase;
  const opened: Store[] = [];
  beforeAll(() => {
    pglite = createTestDatabase('pglite');
    postgres = createTestDatabase('postgres');
  });
  afterAll(async () => {
    await Promise.allSettled(opened.map((s) => s.close()));
    await pglite.cleanup();
    await postgres.cleanup();
  });

  it('moves every row to PostgreSQL and back unchanged', async () => {
    const model = testModel;
    const source = await freshStore(pglite, model, opened);
    await seedDemoData(model, source.db, 60, quiet);
    const fromPglite = await exported(source);

    const server = await freshStore(postgres, model, opened);
    await importBackup(server.db, linesOf(fromPglite), { model });
    const fromPostgres = await exported(server);
    expect(comparable(fromPostgres)).toEqual(comparable(fromPglite));

    const back = await freshStore(pglite, model, opened);
    await importBackup(back.db, linesOf(fromPostgres), { model });
    expect(comparable(await exported(back))).toEqual(comparable(fromPglite));
  }, 180_000);
});
