import { beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { buildModel } from '../spec/build';
import { REFUSED_ROWS_LISTED } from './create-many';
import { countRows, createActor, expectRefused, openSyncedQuickly, testModel, testSpec } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';

forEachDatabase('ops.createMany: many records checked like create, written in batches', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let agent: Actor;
  let customer: Actor;
  let other: Actor;

  const organizations = () => store.db.selectFrom('organization').select(['id', 'name']).orderBy('id').execute();
  async function snapshot() {
    return {
      organizations: await organizations(),
      audit: await countRows(store.db, 'nf_audit'),
      tickets: await countRows(store.db, 'ticket'),
    };
  }
  const auditOf = (entity: string, ids: number[]) =>
    store.db
      .selectFrom('nf_audit')
      .select(['record_id', 'actor_id', 'action'])
      .where('entity', '=', entity)
      .where('record_id', 'in', ids)
      .orderBy('record_id')
      .execute();

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    ops = createOps({ model: testModel, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Ada Admin');
    agent = await createActor(store.db, ['agent'], 'Grace Agent');
    customer = await createActor(store.db, ['customer'], 'Carl Customer');
    other = await createActor(store.db, ['customer'], 'Olga Other');
  });

  it('writes every row when all pass, each with its author and its audit row', async () => {
    const result = await ops.createMany(admin, 'organization', [
      { name: 'Alpha One' },
      { name: 'Beta Two', tier: 'premium', domain: 'beta.example' },
    ]);
    expect(result).toEqual({ created: 2, refused: [], refusedRows: 0 });
    const rows = await store.db
      .selectFrom('organization')
      .selectAll()
      .where('name', 'in', ['Alpha One', 'Beta Two'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.name, r.tier, r.created_by])).toEqual([
      ['Alpha One', 'standard', admin.userId],
      ['Beta Two', 'premium', admin.userId],
    ]);
    const audit = await auditOf(
      'organization',
      rows.map((r) => Number(r.id)),
    );
    expect(audit.map((a) => [Number(a.record_id), Number(a.actor_id), a.action])).toEqual(
      rows.map((r) => [Number(r.id), admin.userId, 'create']),
    );
  });

  it('writes nothing when one row is refused, and reports that row with its field errors', async () => {
    const before = await snapshot();
    const result = await ops.createMany(admin, 'organization', [
      { name: 'Gamma Three' },
      { name: 'X' },
      { name: 'Delta Four', tier: 'gold' },
    ]);
    expect(result.created).toBe(0);
    expect(result.refused.map((r) => [r.index, r.code, r.fieldErrors.map((e) => `${e.field}:${e.code}`)])).toEqual([
      [1, 'VALIDATION_FAILED', ['name:too_small']],
      [2, 'VALIDATION_FAILED', ['tier:invalid_value']],
    ]);
    expect(result.refused[0]!.fieldErrors[0]!.message).toBe('Name must be at least 2 characters.');
    expect(await snapshot()).toEqual(before);
  });

  it('writes the good rows and lists the others when asked to', async () => {
    const result = await ops.createMany(admin, 'organization', [{ name: 'Epsilon Five' }, { name: '' }, { name: 'Zeta Six' }], {
      goodRows: true,
    });
    expect(result.created).toBe(2);
    expect(result.refused.map((r) => [r.index, r.fieldErrors.map((e) => e.message)])).toEqual([[1, ['Name is required.']]]);
    expect((await organizations()).map((o) => o.name)).toEqual(expect.arrayContaining(['Epsilon Five', 'Zeta Six']));
  });

  it('refuses a value of a unique field used by an earlier row of the input, or by a stored record', async () => {
    const result = await ops.createMany(admin, 'organization', [{ name: 'Eta Seven' }, { name: 'Alpha One' }, { name: 'Eta Seven' }], {
      goodRows: true,
      rowName: (index) => `line ${index + 2}`,
    });
    expect(result.created).toBe(1);
    expect(result.refused.map((r) => [r.index, r.fieldErrors.map((e) => e.message)])).toEqual([
      [1, ['This name is already used.']],
      [2, ['This name is already used. Line 2 of this import has it too.']],
    ]);
  });

  it('refuses a role without create (FORBIDDEN), and a field the actor may not write, row by row (FORBIDDEN_FIELD)', async () => {
    await expectRefused(snapshot, 'FORBIDDEN', () => ops.createMany(customer, 'organization', [{ name: 'Theta Eight' }]));
    const before = await snapshot();
    const result = await ops.createMany(customer, 'ticket', [
      { subject: 'Printer on fire' },
      { subject: 'Mine too', assignee: agent.userId },
      { subject: 'Done', resolvedAt: '2030-01-01T00:00:00Z' },
    ]);
    expect(result.created).toBe(0);
    expect(result.refused.map((r) => [r.index, r.code, r.fieldErrors.map((e) => e.message)])).toEqual([
      [1, 'FORBIDDEN_FIELD', ['You are not allowed to set Assignee.']],
      [2, 'FORBIDDEN_FIELD', ['Resolved is read-only.']],
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('checks references within the actor’s read scope, and the entity rules, as create does', async () => {
    const own = await ops.create(customer, 'ticket', { subject: 'My own ticket' });
    const others = await ops.create(other, 'ticket', { subject: 'Someone else’s ticket' });
    const comments = await ops.createMany(
      customer,
      'comment',
      [
        { ticket: own.id, body: 'More details.' },
        { ticket: others.id, body: 'Sneaking in.' },
      ],
      { goodRows: true },
    );
    expect(comments.created).toBe(1);
    expect(comments.refused.map((r) => [r.index, r.fieldErrors.map((e) => e.message)])).toEqual([
      [1, [`Ticket: no record #${others.id}.`]],
    ]);
    // The customer's own comment is a reply under its ticket: written like create writes it, one row at a time.
    const ruled = await ops.createMany(
      agent,
      'ticket',
      [
        { subject: 'Urgent without anyone', priority: 'urgent', requester: customer.userId },
        { subject: 'Urgent, assigned', priority: 'urgent', requester: customer.userId, assignee: agent.userId },
      ],
      { goodRows: true },
    );
    expect(ruled.created).toBe(1);
    expect(ruled.refused[0]).toMatchObject({
      index: 0,
      fieldErrors: [{ field: 'assignee', message: 'An urgent ticket needs an assignee.' }],
    });
  });

  it('sets what create sets: the initial state, defaults, the actor as requester, computed due times', async () => {
    // A customer's rows are theirs: the requester defaults to the actor.
    expect((await ops.createMany(customer, 'ticket', [{ subject: 'Batch ticket A' }, { subject: 'Batch ticket B' }])).created).toBe(2);
    // Staff name the customer each ticket is for.
    const result = await ops.createMany(agent, 'ticket', [
      { subject: 'Batch ticket C', priority: 'high', requester: other.userId },
      { subject: 'Batch ticket D', requester: other.userId },
    ]);
    expect(result.created).toBe(2);
    const rows = await store.db
      .selectFrom('ticket')
      .selectAll()
      .where('subject', 'in', ['Batch ticket A', 'Batch ticket B', 'Batch ticket C', 'Batch ticket D'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.state, r.priority, Number(r.requester), Number(r.created_by)])).toEqual([
      ['new', 'normal', customer.userId, customer.userId],
      ['new', 'normal', customer.userId, customer.userId],
      ['new', 'high', other.userId, agent.userId],
      ['new', 'normal', other.userId, agent.userId],
    ]);
    const hours = (r: (typeof rows)[number]) =>
      Math.round((new Date(r.sla_due_at as string).getTime() - new Date(r.created_at as string).getTime()) / 3_600_000);
    expect(rows.map(hours)).toEqual([24, 24, 8, 24]);
  });

  it('writes thousands of rows in batches, leaving out a bad one in the middle, with every audit row', async () => {
    const names = Array.from({ length: 2500 }, (_, i) => ({ name: `Bulk org ${String(i).padStart(4, '0')}` }));
    names[1700] = { name: 'Q' };
    const phases: string[] = [];
    const result = await ops.createMany(admin, 'organization', names, { goodRows: true, onProgress: (p) => phases.push(p.phase) });
    expect(result.created).toBe(2499);
    expect(result.refused.map((r) => r.index)).toEqual([1700]);
    expect(phases).toContain('checking');
    expect(phases.at(-1)).toBe('writing');
    const ids = (await store.db.selectFrom('organization').select('id').where('name', 'like', 'Bulk org %').execute()).map((r) =>
      Number(r.id),
    );
    expect(ids).toHaveLength(2499);
    expect(await auditOf('organization', ids)).toHaveLength(2499);
  });

  it('refuses more rows than the actor’s cap before checking any, writing nothing; staff have a higher cap', async () => {
    const capped = createOps({
      model: buildModel({
        ...testSpec,
        constants: { ...testSpec.constants, importMaxRows: { value: 8 }, importMaxRowsScoped: { value: 3 } },
      }),
      db: store.db,
    });
    // Staff name the customer each ticket is for; a customer's are their own.
    const tickets = (n: number, label: string, requester?: Actor) =>
      Array.from({ length: n }, (_, i) => ({ subject: `${label} ${i}`, ...(requester ? { requester: requester.userId } : {}) }));
    const refused = await expectRefused(snapshot, 'PAYLOAD_TOO_LARGE', () =>
      capped.createMany(customer, 'ticket', tickets(4, 'Capped customer')),
    );
    expect(refused.message).toBe('The file has more than 3 rows; at most 3 tickets can be imported at once. Split it into smaller files.');
    expect(refused.details).toEqual({ constant: 'importMaxRowsScoped', max: 3 });
    // Nothing written with the good rows asked for either.
    await expectRefused(snapshot, 'PAYLOAD_TOO_LARGE', () =>
      capped.createMany(customer, 'ticket', tickets(4, 'Capped customer'), { goodRows: true }),
    );
    expect((await capped.createMany(customer, 'ticket', tickets(3, 'Capped customer'))).created).toBe(3);
    expect((await capped.createMany(agent, 'ticket', tickets(8, 'Capped agent', customer))).created).toBe(8);
    await expectRefused(snapshot, 'PAYLOAD_TOO_LARGE', () => capped.createMany(agent, 'ticket', tickets(9, 'Capped agent', customer)));
  });

  it('lists the first refused rows in full and counts the others, however many there are and whenever each was refused', async () => {
    // Even rows fail their checks at once; odd rows repeat row 1's name, refused only after every row was checked.
    const rows = Array.from({ length: 2 * REFUSED_ROWS_LISTED + 500 }, (_, i) => ({ name: i % 2 === 0 ? 'Q' : 'Repeated org name' }));
    const result = await ops.createMany(admin, 'organization', rows, { goodRows: true });
    expect(result.created).toBe(1);
    expect(result.refusedRows).toBe(rows.length - 1);
    expect(result.refused.map((r) => r.index)).toEqual([0, ...Array.from({ length: REFUSED_ROWS_LISTED - 1 }, (_, i) => i + 2)]);
    expect(result.refused[2]).toMatchObject({
      index: 3,
      fieldErrors: [{ field: 'name', message: expect.stringMatching(/Row 2 of this import has it too\.$/) }],
    });
  });
});
