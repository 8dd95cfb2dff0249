import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import helpdesk from '../../examples/helpdesk/ninefold.spec';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor } from '@testing/engine/ops';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { navigationFor } from './navigation';

vi.mock('server-only', () => ({}));

forEachDatabase('saved views in the navigation', (database) => {
  let engine: TestEngine;
  let admin: Actor;
  let agent: Actor;
  let customer: Actor;

  beforeAll(async () => {
    engine = await openTestEngine(database, buildModel(helpdesk));
    [admin, agent, customer] = await Promise.all([
      createActor(engine.store.db, ['admin']),
      createActor(engine.store.db, ['agent']),
      createActor(engine.store.db, ['customer']),
    ]);
  });
  afterAll(() => engine?.close());

  const childrenOf = async (who: Actor, label: string) =>
    (await navigationFor(engine, who)).find((entry) => entry.label === label)?.children ?? [];

  it('puts each view under its list, as the address of what this viewer may open', async () => {
    const views = engine.views;
    const mine = await views.create(agent, {
      entity: 'ticket',
      name: 'Urgent, mine',
      state: {
        filters: { priority: 'urgent', assignee: String(agent.userId) },
        q: 'printer',
        sort: '-priority',
        columns: ['subject', 'assignee', 'state'],
      },
    });
    expect(await childrenOf(agent, 'Tickets')).toEqual([
      {
        href: `/tickets?q=printer&priority=urgent&assignee=${agent.userId}&sort=-priority&columns=subject,assignee,state`,
        label: 'Urgent, mine',
      },
    ]);
    expect(await childrenOf(admin, 'Tickets')).toEqual([]);

    // Shared with customers, who may not read the assignee: their link leaves it out.
    const shared = await views.create(admin, {
      entity: 'ticket',
      name: 'For everyone',
      state: { filters: { assignee: '1', state: 'open' }, q: '', sort: '', columns: ['subject', 'assignee', 'state'] },
    });
    await views.share(admin, shared.id, ['customer', 'agent']);
    expect(await childrenOf(customer, 'Tickets')).toEqual([{ href: '/tickets?state=open&columns=subject,state', label: 'For everyone' }]);
    expect((await childrenOf(agent, 'Tickets')).map((c) => c.label)).toEqual(['For everyone', 'Urgent, mine']);
    await views.delete(agent, mine.id);
    expect((await childrenOf(agent, 'Tickets')).map((c) => c.label)).toEqual(['For everyone']);
  });

  it('gives no children to lists the viewer does not see in the navigation', async () => {
    const orgs = await engine.views.create(admin, {
      entity: 'organization',
      name: 'Gold',
      state: { filters: {}, q: '', sort: 'name', columns: [] },
    });
    await engine.views.share(admin, orgs.id, ['customer']);
    expect((await navigationFor(engine, customer)).flatMap((entry) => entry.children ?? []).map((c) => c.label)).toEqual(['For everyone']);
  });
});
