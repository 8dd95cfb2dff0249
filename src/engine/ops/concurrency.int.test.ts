import { beforeAll, expect, it } from 'vitest';
import { NinefoldError } from '../errors/ninefold-error';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, openSyncedQuickly, testSpec } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';

const model = buildModel({ ...testSpec, constants: { ...testSpec.constants, maxOpenTicketsPerCustomer: { value: 3, unit: 'tickets' } } });
const WRITERS = 50;

/** What a write settled as: its result, or the catalogue code it was refused with (anything else fails the test). */
async function settle<T>(write: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string }> {
  try {
    return { ok: true, value: await write };
  } catch (error) {
    if (error instanceof NinefoldError) return { ok: false, code: error.code };
    throw error;
  }
}

forEachDatabase('ops under concurrency', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let admin: Actor;
  /** The customer the agent files tickets for. */
  let caller: Actor;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Concurrent Agent');
    admin = await createActor(store.db, ['admin'], 'Concurrent Admin');
    caller = await createActor(store.db, ['customer'], 'Concurrent Caller');
  });

  it(`${WRITERS} updates of one record with the same version: exactly one wins, the others are STALE_VERSION`, async () => {
    const ticket = await ops.create(agent, 'ticket', { subject: 'Race', requester: caller.userId });
    const results = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) => settle(ops.update(agent, 'ticket', ticket.id, { subject: `Writer ${i}` }, ticket.version))),
    );
    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r as { code: string }).code)).toEqual(Array(WRITERS - 1).fill('STALE_VERSION'));
    const stored = (await ops.get(agent, 'ticket', ticket.id)).record;
    expect(stored.version).toBe(2);
    expect(stored.subject).toBe((winners[0] as { value: RecordData }).value.subject);
    expect((await ops.history(agent, 'ticket', ticket.id)).entries.map((e) => e.action)).toEqual(['update', 'create']);
  });

  it(`${WRITERS} writers each appending to one record, retrying when stale: no update is lost, one winner per version`, async () => {
    const ticket = await ops.create(agent, 'ticket', { subject: 'Append', requester: caller.userId, description: '' });
    const wonVersions: number[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, i) => {
        for (;;) {
          const { record } = await ops.get(agent, 'ticket', ticket.id);
          const result = await settle(
            ops.update(agent, 'ticket', ticket.id, { description: `${String(record.description ?? '')}[${i}]` }, record.version),
          );
          if (result.ok) return void wonVersions.push(result.value.version);
          expect(result.code).toBe('STALE_VERSION');
        }
      }),
    );
    const stored = (await ops.get(agent, 'ticket', ticket.id)).record;
    expect(stored.version).toBe(WRITERS + 1);
    expect([...wonVersions].sort((a, b) => a - b)).toEqual(Array.from({ length: WRITERS }, (_, i) => i + 2));
    const markers = String(stored.description).match(/\[\d+\]/g) ?? [];
    expect([...markers].sort()).toEqual(Array.from({ length: WRITERS }, (_, i) => `[${i}]`).sort());
    const history = await ops.history(agent, 'ticket', ticket.id, { limit: 200 });
    expect(history.entries.filter((e) => e.action === 'update')).toHaveLength(WRITERS);
  });

  it('two racing transitions of one version: one wins, the other is STALE_VERSION, the effect is applied once', async () => {
    const ticket = await ops.create(agent, 'ticket', { subject: 'Transition race', requester: caller.userId, assignee: agent.userId });
    const results = await Promise.all([
      settle(ops.transition(agent, 'ticket', ticket.id, 'start', { version: ticket.version })),
      settle(ops.transition(agent, 'ticket', ticket.id, 'start', { version: ticket.version })),
    ]);
    expect(results.map((r) => (r.ok ? 'ok' : r.code)).sort()).toEqual(['STALE_VERSION', 'ok']);
    expect((await ops.history(agent, 'ticket', ticket.id)).entries.filter((e) => e.action === 'transition')).toHaveLength(1);
  });

  it('inserts racing for one unique value: one wins, the others get VALIDATION_FAILED (never a 500)', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `Unique race ${round}`;
      const results = await Promise.all(Array.from({ length: 4 }, () => settle(ops.create(admin, 'organization', { name }))));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).map((r) => (r as { code: string }).code)).toEqual([
        'VALIDATION_FAILED',
        'VALIDATION_FAILED',
        'VALIDATION_FAILED',
      ]);
    }
    const error = await ops.create(admin, 'organization', { name: 'Unique race 0' }).catch((e: NinefoldError) => e);
    expect((error as NinefoldError).fieldErrors).toEqual([{ field: 'name', code: 'unique', message: 'This name is already used.' }]);
  });

  it('creates racing for the last places under a limit: the cap holds', async () => {
    const customer = await createActor(store.db, ['customer'], 'Racing Customer');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => settle(ops.create(customer, 'ticket', { subject: `Racing ${i}` }))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(new Set(results.filter((r) => !r.ok).map((r) => (r as { code: string }).code))).toEqual(new Set(['LIMIT_EXCEEDED']));
    const { rows } = await ops.list(customer, 'ticket');
    expect(rows).toHaveLength(3);
  });
});
