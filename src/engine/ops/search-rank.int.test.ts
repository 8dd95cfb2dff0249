import { beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, fieldCodes, ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';

/*
 * ops.search: the list's search, best first. The records are created so that recency alone
 * would give the opposite order: the best match is the oldest.
 */

forEachDatabase('search by relevance', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let customer: Actor;
  /** The customer the agent files tickets for: not the one whose search is scoped. */
  let caller: Actor;
  const tickets: Record<string, RecordData> = {};

  const subjects = async (q: string, actor: Actor = agent, limit = 100) =>
    (await ops.search(actor, 'ticket', q, { limit })).rows.map((r) => r.subject);

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    ops = createOps({ model: testModel, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Rank Agent');
    customer = await createActor(store.db, ['customer'], 'Rank Customer');
    caller = await createActor(store.db, ['customer'], 'Rank Caller');
    const data: [string, string | null, Actor][] = [
      ['Printer', null, agent],
      ['Printer toner low', null, agent],
      ['The office printer is jammed', null, customer],
      ['Paper jam', 'Stuck near the printer', agent],
      ['Toner', 'For the printer on floor two', customer],
      ['A printer for floor two', null, agent],
      ['Screen flickers', null, agent],
    ];
    for (const [subject, description, actor] of data) {
      const requester = actor === agent ? { requester: caller.userId } : {};
      tickets[subject] = await ops.create(actor, 'ticket', { subject, description, ...requester });
    }
  });

  it('orders the title typed, then titles starting with it, then titles holding the words, then other fields', async () => {
    const best = ['Printer', 'Printer toner low', 'A printer for floor two', 'The office printer is jammed', 'Toner', 'Paper jam'];
    expect(await subjects('printer')).toEqual(best);
    expect(await subjects('  PRINTER ')).toEqual(best);
  });

  it('breaks ties by the most recently changed, within each rank', async () => {
    // No title is "print": the two that start with it, newest first; then the words, then other fields.
    expect(await subjects('print')).toEqual([
      'Printer toner low',
      'Printer',
      'A printer for floor two',
      'The office printer is jammed',
      'Toner',
      'Paper jam',
    ]);
    const jam = tickets['Paper jam']!;
    await ops.update(agent, 'ticket', jam.id, { description: 'Stuck near the printer, again' }, jam.version);
    expect((await subjects('printer')).slice(-2)).toEqual(['Paper jam', 'Toner']);
  });

  it('an exact title beats a newer one that only starts with it, whatever the case', async () => {
    await ops.create(agent, 'ticket', { subject: 'Scanner', requester: caller.userId });
    await ops.create(agent, 'ticket', { subject: 'Scanner broken', requester: caller.userId });
    expect(await subjects('SCANNER')).toEqual(['Scanner', 'Scanner broken']);
    expect(await subjects('printer toner LOW')).toEqual(['Printer toner low']);
  });

  it('gives the first `limit` only, and never a record out of the actor scope', async () => {
    expect(await subjects('printer', agent, 2)).toEqual(['Printer', 'Printer toner low']);
    expect(await subjects('printer', customer)).toEqual(['The office printer is jammed', 'Toner']);
  });

  it('finds nothing for nothing typed, and refuses what the list search refuses', async () => {
    expect(await subjects('   ')).toEqual([]);
    expect(fieldCodes(await ninefoldError(ops.search(agent, 'contact', 'anything')))).toEqual(['q:invalid_search']);
    expect(fieldCodes(await ninefoldError(ops.search(agent, 'ticket', 'x'.repeat(201))))).toEqual(['q:invalid_search']);
    expect((await ninefoldError(ops.search(customer, 'organization', 'printer'))).code).toBe('FORBIDDEN');
  });
});
