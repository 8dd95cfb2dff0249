import { beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from '../ops/create-ops';
import type { Ops } from '../ops/ops';
import { countRows, createActor, ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { importCsv } from './import-csv';
import type { CsvSource } from './read-csv';

const file = (text: string) => new TextEncoder().encode(text);

/** The text as a file read from disk a kilobyte at a time, counting how much was read. */
function streamed(text: string): { source: CsvSource; read: () => number; size: number } {
  const bytes = file(text);
  let read = 0;
  const chunks = (async function* () {
    for (let at = 0; at < bytes.length; at += 1024) {
      read = Math.min(bytes.length, at + 1024);
      yield bytes.slice(at, at + 1024);
    }
  })();
  return { source: { size: bytes.length, chunks }, read: () => read, size: bytes.length };
}
const MAX = 1024 * 1024;

forEachDatabase('CSV import: a file read as forms read it, checked and written through ops', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let customer: Actor;
  let acme: number;

  const run = (actor: Actor, entity: string, text: string, goodRows = false) =>
    importCsv(ops, testModel, actor, entity, file(text), { maxBytes: MAX, goodRows });
  const subjects = async (like: string) =>
    (await store.db.selectFrom('ticket').select('subject').where('subject', 'like', like).orderBy('id').execute()).map((r) => r.subject);

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    ops = createOps({ model: testModel, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Grace Agent');
    customer = await createActor(store.db, ['customer'], 'Carl Customer');
    const admin = await createActor(store.db, ['admin'], 'Ada Admin');
    acme = (await ops.create(admin, 'organization', { name: 'Acme Corp' })).id;
    await ops.create(admin, 'organization', { name: 'Twin' });
  });

  it('reads labels, titles, emails and shown dates, and writes every row when all pass', async () => {
    const report = await run(
      agent,
      'ticket',
      [
        // Staff name the customer each ticket is for: by email or by name.
        'Subject,Priority,Organization,Requester,Assignee,Due,Description',
        `Import A,High,acme corp,${customer.email},${agent.email},"Dec 1, 2031, 09:30 UTC","Two\nlines"`,
        `Import B,low,#${acme},carl customer,,2031-12-02,`,
      ].join('\r\n'),
    );
    expect(report).toMatchObject({ rows: 2, created: 2, refused: [] });
    const rows = await store.db.selectFrom('ticket').selectAll().where('subject', 'like', 'Import %').orderBy('id').execute();
    expect(
      rows.map((r) => [
        r.priority,
        Number(r.organization),
        Number(r.requester),
        r.assignee === null ? null : Number(r.assignee),
        r.description,
        r.state,
      ]),
    ).toEqual([
      ['high', acme, customer.userId, agent.userId, 'Two\nlines', 'new'],
      ['low', acme, customer.userId, null, null, 'new'],
    ]);
    expect(new Date(rows[0]!.due_at as string).toISOString()).toBe('2031-12-01T09:30:00.000Z');
  });

  it('writes nothing when a row is bad, and names its line and column; then imports the good rows', async () => {
    const text = [
      'subject,priority,organization,requester',
      `Fine one,normal,Acme Corp,${customer.email}`,
      `No,normal,,${customer.email}`,
      '"Multi',
      `line",urgent,Nowhere Inc,${customer.email}`,
      `Fine two,,Twin,${customer.email}`,
    ].join('\n');
    const before = await countRows(store.db, 'ticket');
    const report = await run(agent, 'ticket', text);
    expect(report.created).toBe(0);
    expect(await countRows(store.db, 'ticket')).toBe(before);
    expect(report.refused.map((r) => [r.line, r.problems])).toEqual([
      [3, [{ column: 'subject', message: 'Subject must be at least 3 characters.' }]],
      [
        4,
        [
          { column: 'organization', message: 'No organization titled “Nowhere Inc”.' },
          { column: 'Assignee', message: 'An urgent ticket needs an assignee.' },
        ],
      ],
    ]);
    expect(report.refused[1]!.cells).toEqual(['Multi\nline', 'urgent', 'Nowhere Inc', customer.email]);

    const good = await run(agent, 'ticket', text, true);
    expect(good).toMatchObject({ rows: 4, created: 2, goodRows: true });
    expect(good.refused.map((r) => r.line)).toEqual([3, 4]);
    expect(await subjects('Fine %')).toEqual(['Fine one', 'Fine two']);
  });

  it('refuses columns it cannot import, before any row: unknown, set by the application, not the actor’s to set, missing', async () => {
    const columns = await ninefoldError(run(agent, 'ticket', 'ID,Subject,State,Resolved,Colour\n1,Hello there,new,,red\n'));
    expect(columns.code).toBe('VALIDATION_FAILED');
    expect(columns.fieldErrors.map((e) => [e.field, e.code])).toEqual([
      ['ID', 'not_importable'],
      ['State', 'not_importable'],
      ['Resolved', 'not_importable'],
      ['Colour', 'unknown_column'],
    ]);
    expect(columns.fieldErrors[1]!.message).toBe(
      '"State": new tickets start as "New" and change state only through the workflow. Remove this column.',
    );
    // A customer may read the requester but not set it, and may not even read the assignee: that one is "not a field".
    const customers = await ninefoldError(run(customer, 'ticket', 'Subject,Requester,Assignee\nHelp me please,,\n'));
    expect(customers.fieldErrors.map((e) => e.message)).toEqual([
      'You cannot set "Requester" on new tickets. Remove this column.',
      '"Assignee" is not a field of tickets. Rename or remove this column.',
    ]);
    const missing = await ninefoldError(run(agent, 'ticket', 'Priority\nhigh\n'));
    expect(missing.fieldErrors.map((e) => e.message)).toEqual(['The file has no "Subject" column, and every ticket needs one.']);
  });

  it('imports as the actor: a customer’s tickets are theirs; a role that may not create is refused', async () => {
    const report = await run(customer, 'ticket', 'Subject,Description\nCustomer import one,=cmd|calc\n');
    expect(report.created).toBe(1);
    const row = await store.db.selectFrom('ticket').selectAll().where('subject', '=', 'Customer import one').executeTakeFirstOrThrow();
    expect([Number(row.requester), Number(row.created_by), row.description]).toEqual([customer.userId, customer.userId, '=cmd|calc']);
    expect((await ninefoldError(run(customer, 'organization', 'Name\nNope Ltd\n'))).code).toBe('FORBIDDEN');
  });

  it('finds users by email or name, and refuses a name two users share', async () => {
    await createActor(store.db, ['agent'], 'Sam Twin');
    await createActor(store.db, ['agent'], 'Sam Twin');
    const report = await run(
      agent,
      'ticket',
      `Subject,Requester,Assignee\nBy name,carl customer,grace agent\nBy shared name,${customer.email},Sam Twin\nBy id,#${customer.userId},#${agent.userId}\n`,
      true,
    );
    expect(report.created).toBe(2);
    expect(report.refused.map((r) => [r.line, r.problems])).toEqual([
      [3, [{ column: 'Assignee', message: '2 users are named “Sam Twin”: give the id instead.' }]],
    ]);
  });

  it('refuses files that are not CSV with catalogue errors', async () => {
    expect((await ninefoldError(run(agent, 'ticket', ''))).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await ninefoldError(run(agent, 'ticket', 'Subject\n'))).message).toBe('The file has no rows to import: only a header row.');
    const big = await ninefoldError(importCsv(ops, testModel, agent, 'ticket', file('Subject\nabc\n'), { maxBytes: 5 }));
    expect(big.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('ignores a column without a name while it is blank, and refuses the file when it has values', async () => {
    const requester = customer.email;
    expect((await run(agent, 'ticket', `Subject,,Priority,,Requester\nBlank columns around,,high,,${requester}\n`)).created).toBe(1);
    const unnamed = await ninefoldError(
      run(
        agent,
        'ticket',
        `Subject,,Priority,,Requester\nUnnamed one,,high,,${requester}\nUnnamed two,x,low,,${requester}\nUnnamed three,,low,y,${requester}\n`,
      ),
    );
    expect(unnamed.fieldErrors.map((e) => [e.field, e.code, e.message])).toEqual([
      ['column 2', 'unnamed_column', 'Column 2 has values but no name in the header row.'],
      ['column 4', 'unnamed_column', 'Column 4 has values but no name in the header row.'],
    ]);
    expect(await subjects('Unnamed %')).toEqual([]);
  });

  it('refuses more rows than the actor’s cap, in the catalogue’s words, having read no further and written nothing', async () => {
    const before = await countRows(store.db, 'ticket');
    const flood = streamed(`Subject\n${'Flooding row\n'.repeat(20_000)}`);
    const refused = await ninefoldError(importCsv(ops, testModel, customer, 'ticket', flood.source, { maxBytes: MAX, goodRows: true }));
    expect([refused.code, refused.message]).toEqual([
      'PAYLOAD_TOO_LARGE',
      'The file has more than 1,000 rows; at most 1,000 tickets can be imported at once. Split it into smaller files.',
    ]);
    expect(flood.read()).toBeLessThan(flood.size / 4);
    expect(await countRows(store.db, 'ticket')).toBe(before);
    // Staff (an agent creates any ticket) have a higher cap.
    expect((await run(agent, 'ticket', `Subject,Requester\n${`Agent bulk row,${customer.email}\n`.repeat(1001)}`)).created).toBe(1001);
  });

  it('refuses a header it cannot import before reading the rows', async () => {
    const bad = streamed(`Subject,Colour\n${'Some ticket,red\n'.repeat(5000)}`);
    expect((await ninefoldError(importCsv(ops, testModel, agent, 'ticket', bad.source, { maxBytes: MAX }))).code).toBe('VALIDATION_FAILED');
    expect(bad.read()).toBeLessThan(bad.size / 4);
  });
});
