import { beforeAll, describe, expect, it } from 'vitest';
import { createOps } from '../ops/create-ops';
import { countRows, createActor, expectRefused, fieldCodes, ninefoldError, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { viewableState } from './list-state';
import { createSavedViews, MAX_VIEW_NAME_LENGTH } from './saved-views';
import type { ListState, SavedViews } from './types';

const openTickets: ListState = {
  filters: { state: 'open', priority: 'high' },
  q: 'printer',
  sort: '-priority',
  columns: ['subject', 'state', 'assignee'],
};

forEachDatabase('saved views', (database) => {
  let store: Store;
  let views: SavedViews;
  let admin: Actor;
  let agent: Actor;
  let otherAgent: Actor;
  let customer: Actor;

  const snapshot = () => store.db.selectFrom('nf_saved_view').selectAll().orderBy('id').execute();
  const refused = (code: string, write: () => Promise<unknown>) => expectRefused(snapshot, code, write);

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    const ops = createOps({ model: testModel, db: store.db });
    views = createSavedViews({ model: testModel, db: store.db, ops });
    admin = await createActor(store.db, ['admin'], 'Ada Admin');
    agent = await createActor(store.db, ['agent'], 'Grace Agent');
    otherAgent = await createActor(store.db, ['agent'], 'Otto Agent');
    customer = await createActor(store.db, ['customer'], 'Carl Customer');
  });

  describe('who sees a view', () => {
    it('keeps a view for its owner only, with the state as saved', async () => {
      const saved = await views.create(agent, { entity: 'ticket', name: '  Open   and urgent ', state: openTickets });
      expect(saved).toMatchObject({
        entity: 'ticket',
        name: 'Open and urgent',
        state: openTickets,
        ownerId: agent.userId,
        sharedWith: [],
        mine: true,
      });
      expect((await views.list(agent, 'ticket')).map((v) => v.name)).toContain('Open and urgent');
      expect((await views.list(otherAgent)).map((v) => v.id)).not.toContain(saved.id);
      expect((await ninefoldError(views.get(otherAgent, saved.id))).code).toBe('NOT_FOUND');
      expect((await views.get(agent, saved.id)).name).toBe('Open and urgent');
    });

    it('shows a view an administrator shared with a role to every member of it, read-only', async () => {
      const view = await views.create(admin, { entity: 'ticket', name: 'Escalations', state: { ...openTickets, q: '' } });
      expect((await views.list(agent)).map((v) => v.id)).not.toContain(view.id);
      const shared = await views.share(admin, view.id, ['agent']);
      expect(shared.sharedWith).toEqual(['agent']);
      const seen = (await views.list(otherAgent, 'ticket')).find((v) => v.id === view.id);
      expect(seen).toMatchObject({ name: 'Escalations', mine: false, ownerId: admin.userId });
      expect((await views.list(customer)).map((v) => v.id)).not.toContain(view.id);
      await refused('FORBIDDEN', () => views.rename(agent, view.id, 'Mine now'));
      await refused('FORBIDDEN', () => views.replaceState(agent, view.id, { ...openTickets, q: 'x' }));
      await refused('FORBIDDEN', () => views.delete(agent, view.id));
      await refused('NOT_FOUND', () => views.delete(customer, view.id));
    });

    it('lists views only of entities the viewer may list, even when shared with their role', async () => {
      const orgs = await views.create(admin, {
        entity: 'organization',
        name: 'Gold tier',
        state: { filters: {}, q: '', sort: 'name', columns: [] },
      });
      await views.share(admin, orgs.id, ['agent', 'customer']);
      expect((await views.list(agent)).map((v) => v.id)).toContain(orgs.id);
      // Customers may not list organizations: the view is not theirs to see.
      expect((await views.list(customer)).map((v) => v.id)).not.toContain(orgs.id);
      expect((await ninefoldError(views.get(customer, orgs.id))).code).toBe('NOT_FOUND');
      await refused('FORBIDDEN', () => views.create(customer, { entity: 'organization', name: 'Sneaky', state: openTickets }));
      await refused('FORBIDDEN', () => views.create(agent, { entity: 'nothing', name: 'Nowhere', state: openTickets }));
    });
  });

  describe('changes', () => {
    it('lets only administrators share, and only their own views, with roles of the spec', async () => {
      const mine = await views.create(agent, { entity: 'ticket', name: 'Shared by an agent?', state: openTickets });
      const error = await refused('FORBIDDEN', () => views.share(agent, mine.id, ['agent']));
      expect(error.message).toBe('Only administrators may share views.');
      // Another's view is not the administrator's to see, let alone share.
      await refused('NOT_FOUND', () => views.share(admin, mine.id, ['agent']));
      const adminView = await views.create(admin, { entity: 'ticket', name: 'For nobody', state: openTickets });
      const unknown = await refused('VALIDATION_FAILED', () => views.share(admin, adminView.id, ['wizard']));
      expect(fieldCodes(unknown)).toEqual(['roles:invalid']);
      expect((await views.share(admin, adminView.id, ['customer', 'agent'])).sharedWith).toEqual(['agent', 'customer']);
      expect((await views.share(admin, adminView.id, [])).sharedWith).toEqual([]);
      expect((await views.list(agent)).map((v) => v.id)).not.toContain(adminView.id);
    });

    it('takes no name that every object inherits (constructor, __proto__...) for a list or a role', async () => {
      const adminView = await views.create(admin, { entity: 'ticket', name: 'Inherited names', state: openTickets });
      for (const name of Object.getOwnPropertyNames(Object.prototype)) {
        await refused('FORBIDDEN', () => views.create(agent, { entity: name, name: 'Nowhere', state: openTickets }));
        expect(fieldCodes(await refused('VALIDATION_FAILED', () => views.share(admin, adminView.id, [name])))).toEqual(['roles:invalid']);
      }
    });

    it('renames, updates and deletes for the owner', async () => {
      const view = await views.create(otherAgent, { entity: 'ticket', name: 'Draft', state: openTickets });
      const renamed = await views.rename(otherAgent, view.id, 'Final name');
      expect(renamed.name).toBe('Final name');
      expect(renamed.updatedAt.getTime()).toBeGreaterThanOrEqual(view.updatedAt.getTime());
      const changed = await views.replaceState(otherAgent, view.id, { filters: { state: 'new' }, q: '', sort: '', columns: [] });
      expect(changed).toMatchObject({ name: 'Final name', state: { filters: { state: 'new' }, q: '', sort: '', columns: [] } });
      const before = await countRows(store.db, 'nf_saved_view');
      await views.delete(otherAgent, view.id);
      expect(await countRows(store.db, 'nf_saved_view')).toBe(before - 1);
      expect((await ninefoldError(views.get(otherAgent, view.id))).code).toBe('NOT_FOUND');
      await refused('NOT_FOUND', () => views.delete(otherAgent, view.id));
    });

    it('refuses a name the owner already uses for the same list, whatever its case; other lists and people may reuse it', async () => {
      await views.create(agent, { entity: 'ticket', name: 'Mine', state: openTickets });
      const clash = await refused('VALIDATION_FAILED', () => views.create(agent, { entity: 'ticket', name: ' MINE ', state: openTickets }));
      expect(clash.fieldErrors).toEqual([{ field: 'name', code: 'unique', message: 'You already have a view of tickets named "Mine".' }]);
      const other = await views.create(agent, { entity: 'ticket', name: 'Other', state: openTickets });
      expect(fieldCodes(await refused('VALIDATION_FAILED', () => views.rename(agent, other.id, 'mine')))).toEqual(['name:unique']);
      expect((await views.rename(agent, other.id, 'OTHER')).name).toBe('OTHER');
      expect((await views.create(agent, { entity: 'organization', name: 'Mine', state: openTickets })).name).toBe('Mine');
      expect((await views.create(otherAgent, { entity: 'ticket', name: 'Mine', state: openTickets })).name).toBe('Mine');
    });

    it('refuses an empty or too long name', async () => {
      expect(
        fieldCodes(await refused('VALIDATION_FAILED', () => views.create(agent, { entity: 'ticket', name: '   ', state: openTickets }))),
      ).toEqual(['name:required']);
      const long = 'x'.repeat(MAX_VIEW_NAME_LENGTH + 1);
      expect(
        fieldCodes(await refused('VALIDATION_FAILED', () => views.create(agent, { entity: 'ticket', name: long, state: openTickets }))),
      ).toEqual(['name:too_big']);
    });
  });

  it('keeps at most 50 views of one list per person (the navigation lists them all)', async () => {
    const collector = await createActor(store.db, ['agent'], 'Colin Collector');
    for (let i = 1; i <= 50; i++) await views.create(collector, { entity: 'ticket', name: `View ${i}`, state: openTickets });
    const error = await refused('LIMIT_EXCEEDED', () =>
      views.create(collector, { entity: 'ticket', name: 'One too many', state: openTickets }),
    );
    expect(error.message).toBe('You can keep at most 50 views of one list. Delete one first.');
    expect((await views.create(collector, { entity: 'organization', name: 'Another list', state: openTickets })).name).toBe('Another list');
  });

  describe('opening a view', () => {
    it('drops filters, sort keys and columns the viewer may not read', async () => {
      const ticket = testModel.entitiesByName.ticket!;
      const state: ListState = {
        filters: { state: 'open', assignee: '3', organization: '7' },
        q: 'x',
        sort: '-assignee,subject',
        columns: ['subject', 'assignee', 'organization', 'nonsense', 'state'],
      };
      const asAgent = viewableState(ticket, new Set(createOps({ model: testModel, db: store.db }).access(agent, 'ticket').readable), state);
      expect(asAgent).toEqual({ state: { ...state, columns: ['subject', 'assignee', 'organization', 'state'] }, dropped: 1 });
      const asCustomer = viewableState(
        ticket,
        new Set(createOps({ model: testModel, db: store.db }).access(customer, 'ticket').readable),
        state,
      );
      expect(asCustomer).toEqual({
        state: { filters: { state: 'open' }, q: 'x', sort: 'subject', columns: ['subject', 'state'] },
        dropped: 6,
      });
    });
  });
});
