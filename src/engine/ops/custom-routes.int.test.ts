import { beforeAll, expect, it } from 'vitest';
import helpdesk from '../../../examples/helpdesk/ninefold.spec';
import { buildModel } from '../spec/build';
import { matchRoute } from '../spec/screens/routes';
import { type RouteModel } from '../spec/screens/route-model';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { ListQuery } from './types';
import type { Actor } from '../ground/actor';

/**
 * The lists of the helpdesk's custom routes, queried as their page queries them: the route's
 * condition (with the signed-in user and the address's parameters) ANDed with the viewer's scope.
 */
const model = buildModel({
  ...helpdesk,
  screens: {
    ...helpdesk.screens,
    routes: {
      ...helpdesk.screens?.routes,
      // Open to every signed-in user: what each sees is their own scope.
      inState: {
        path: '/tickets-in/{state}/list',
        title: 'Tickets in a state',
        params: { state: 'text' },
        show: { list: 'ticket', where: { field: 'state', op: 'eq', value: { param: 'state' } }, sort: 'createdAt' },
      },
    },
  },
});

/** The list query of the route an address opens, as src/app/[plural]/entity-list-view.tsx builds it. */
function routeQuery(segments: readonly string[]): { entity: string; query: ListQuery } {
  const match = matchRoute(model.routes, segments);
  if (!match || match.route.show.kind !== 'list') throw new Error(`no list route at /${segments.join('/')}`);
  const show = match.route.show as Extract<RouteModel['show'], { kind: 'list' }>;
  return {
    entity: show.entity,
    query: { ...(show.sort ? { sort: show.sort } : {}), ...(show.where ? { where: show.where, params: match.params } : {}) },
  };
}

forEachDatabase('custom routes: fixed lists with the current user and the address', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let ann: Actor;
  let bob: Actor;
  let customer: Actor;
  let acme: number;
  let globex: number;
  const subjects = async (actor: Actor, segments: readonly string[]) => {
    const { entity, query } = routeQuery(segments);
    return (await ops.list(actor, entity, query)).rows.map((r) => r.subject);
  };

  /** A ticket of `requester`, assigned, in the given state (reached through the workflow). */
  async function ticket(
    requester: Actor,
    subject: string,
    assignee: Actor,
    state: 'new' | 'open' | 'pending' | 'resolved',
    extra: Record<string, unknown> = {},
  ) {
    let record = await ops.create(requester, 'ticket', { subject });
    // Customers may not set priority, organization or assignee: the admin does (an urgent one needs its assignee).
    record = await ops.update(admin, 'ticket', record.id, { ...extra, assignee: assignee.userId }, record.version);
    if (state === 'new') return record;
    record = await ops.transition(admin, 'ticket', record.id, 'start', { version: record.version, input: { assignee: assignee.userId } });
    if (state === 'pending') record = await ops.transition(admin, 'ticket', record.id, 'wait', { version: record.version });
    if (state === 'resolved') record = await ops.transition(admin, 'ticket', record.id, 'resolve', { version: record.version });
    return record;
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Ada Admin');
    ann = await createActor(store.db, ['agent'], 'Ann Agent');
    bob = await createActor(store.db, ['agent'], 'Bob Agent');
    customer = await createActor(store.db, ['customer'], 'Carl Customer');
    // Another customer, of no organization: the requester of Bob's tickets, which Carl does not see.
    const caller = await createActor(store.db, ['customer'], 'Cleo Caller');
    acme = (await ops.create(admin, 'organization', { name: 'Acme', domain: 'acme.test' })).id;
    globex = (await ops.create(admin, 'organization', { name: 'Globex', domain: 'globex.test' })).id;
    // Created in this order, so that the SLA due times (by priority) differ from creation order.
    await ticket(customer, 'Ann low open', ann, 'open', { priority: 'low', organization: acme });
    await ticket(customer, 'Ann urgent pending', ann, 'pending', { priority: 'urgent', organization: acme });
    await ticket(customer, 'Ann high open', ann, 'open', { priority: 'high', organization: globex });
    await ticket(customer, 'Ann new', ann, 'new', { organization: acme });
    await ticket(customer, 'Ann resolved', ann, 'resolved', { organization: acme });
    await ticket(caller, 'Bob normal open', bob, 'open', { organization: acme });
    await ticket(caller, 'Bob urgent open', bob, 'open', { priority: 'urgent', organization: globex });
  });

  it("lists each agent's own open and pending tickets, oldest SLA due first", async () => {
    expect(await subjects(ann, ['queue'])).toEqual(['Ann urgent pending', 'Ann high open', 'Ann low open']);
    expect(await subjects(bob, ['queue'])).toEqual(['Bob urgent open', 'Bob normal open']);
    expect(await subjects(admin, ['queue'])).toEqual([]);
  });

  it("counts what the route's list holds for each user", async () => {
    const { entity, query } = routeQuery(['queue']);
    expect(await ops.count(ann, entity, query)).toEqual({ count: 3, more: false });
    expect(await ops.count(bob, entity, query)).toEqual({ count: 2, more: false });
  });

  it("filters by the address's parameter, typed, and keeps the viewer's own filters on top", async () => {
    expect(await subjects(ann, ['organizations', String(acme), 'open'])).toEqual([
      'Ann urgent pending',
      'Ann new',
      'Bob normal open',
      'Ann low open',
    ]);
    expect(await subjects(bob, ['organizations', String(globex), 'open'])).toEqual(['Bob urgent open', 'Ann high open']);
    const { entity, query } = routeQuery(['organizations', String(acme), 'open']);
    const mine = await ops.list(bob, entity, { ...query, filters: { assignee: String(bob.userId) } });
    expect(mine.rows.map((r) => r.subject)).toEqual(['Bob normal open']);
    expect(matchRoute(model.routes, ['organizations', 'acme', 'open'])).toBeNull();
  });

  it("applies the viewer's scope under the route's condition", async () => {
    expect(await subjects(customer, ['tickets-in', 'open', 'list'])).toEqual(['Ann low open', 'Ann high open']);
    expect(await subjects(admin, ['tickets-in', 'open', 'list'])).toEqual([
      'Ann low open',
      'Ann high open',
      'Bob normal open',
      'Bob urgent open',
    ]);
    // A condition on a field the viewer may not read is refused, not silently ignored.
    const queue = routeQuery(['queue']);
    expect((await ninefoldError(ops.list(customer, queue.entity, queue.query))).code).toBe('FORBIDDEN_FIELD');
  });
});
