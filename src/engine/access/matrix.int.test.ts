import { beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../log';
import { createOps } from '../ops/create-ops';
import { openSyncedQuickly, testModel, testSpec } from '../ops/testing';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '../store/testing';
import type { Store } from '../store/types';
import { createMatrixFixtures, expectedMatrix, opsDoor, runMatrix, type MatrixFixtures } from './matrix-testing';

/*
 * The permission matrix of the helpdesk (plus `contact`, an entity without permissions), derived
 * from the spec and asked of ops, cell by cell. The server actions and the REST API are asked the
 * same matrix in src/server/record-actions.int.test.ts and src/api/access-matrix.int.test.ts.
 */

/** The helpdesk with one grant taken away (agents may no longer edit comments) and one added (agents may delete tickets). */
function changedSpec(): AppSpec {
  const permissions = testSpec.permissions!;
  const { update: _removed, ...agentOnComments } = permissions.comment.agent;
  return {
    ...testSpec,
    permissions: {
      ...permissions,
      ticket: { ...permissions.ticket, agent: { ...permissions.ticket.agent, delete: true } },
      comment: { ...permissions.comment, agent: agentOnComments },
    },
  };
}

forEachDatabase('permission matrix', (database) => {
  let store: Store;
  let fixtures: MatrixFixtures;

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    fixtures = await createMatrixFixtures(testModel, store.db);
  });

  it('has every kind of cell, for every persona and entity', () => {
    const cells = expectedMatrix(testModel, fixtures);
    const outcomes = new Set(cells.values());
    expect([...outcomes].sort()).toEqual(['allowed', 'final', 'forbidden', 'forbiddenField', 'hidden']);
    expect(fixtures.users.map((u) => u.persona.name)).toEqual(['admin', 'agent', 'customer', 'no role', 'admin+agent+customer']);
    // A few cells read straight from the spec.
    expect(cells.get('customer × ticket × read [requester: own, state: "closed"]')).toBe('allowed');
    expect(cells.get('customer × ticket × read [requester: another\'s, state: "new"]')).toBe('hidden');
    // A scope on the user's fields: a colleague of the same organization opened it (requester.organization is theirs).
    expect(cells.get('customer × ticket × read [requester: a colleague\'s, state: "new"]')).toBe('allowed');
    expect(cells.get('customer × ticket × update [requester: a colleague\'s, state: "open"]')).toBe('forbidden');
    expect(cells.get('agent × ticket × read [requester: a colleague\'s, state: "new"]')).toBe('allowed');
    expect(cells.get('customer × ticket × update [requester: own, state: "closed"]')).toBe('final');
    expect(cells.get('agent × ticket × update [requester: own, state: "closed"]')).toBe('final');
    expect(cells.get('customer × ticket × update [requester: own, state: "resolved"]')).toBe('forbidden');
    expect(cells.get('customer × ticket × update [requester: another\'s, state: "open"]')).toBe('hidden');
    expect(cells.get('customer × ticket × create [requester: another\'s]')).toBe('forbiddenField');
    expect(cells.get('customer × comment × read [internal: true, ticket: readable]')).toBe('hidden');
    expect(cells.get('customer × comment × create [internal: false, ticket: not readable]')).toBe('hidden');
    expect(cells.get('customer × comment × create [internal: true, ticket: readable]')).toBe('forbiddenField');
    expect(cells.get('agent × ticket × delete [requester: own, state: "new"]')).toBe('forbidden');
    expect(cells.get('agent × contact × read [any record]')).toBe('forbidden');
    expect(cells.get('admin × contact × delete [any record]')).toBe('allowed');
    expect(cells.get('no role × ticket × list [requester: own, state: "new"]')).toBe('forbidden');
  });

  it('holds through ops, and a refusal changes nothing', async () => {
    const { result } = await captureLog(() => runMatrix(testModel, store.db, fixtures, opsDoor(createOps({ model: testModel, db: store.db }))));
    expect(result.mismatches).toEqual([]);
    expect(result.checks).toBeGreaterThan(500);
  });

  describe('has teeth', () => {
    const changed = buildModel(changedSpec());

    it('changes where a grant is taken away or added', () => {
      const before = expectedMatrix(testModel, fixtures);
      const after = expectedMatrix(changed, fixtures);
      const moved = [...before].filter(([cell, outcome]) => after.get(cell) !== outcome).map(([cell, outcome]) => `${cell}: ${outcome} → ${after.get(cell)}`);
      expect(moved.length).toBeGreaterThan(0);
      // Only agents' comment updates and ticket deletes move (agents alone, or with every role: then another role still grants them).
      for (const line of moved) expect(line).toMatch(/^agent × (comment × update|ticket × delete) /);
      expect(moved).toContain('agent × comment × update [internal: false, ticket: readable]: allowed → forbidden');
      expect(moved).toContain('agent × ticket × delete [requester: another\'s, state: "closed"]: forbidden → allowed');
    });

    it('the engine follows the changed spec, and the old one fails it', async () => {
      const { result: follows } = await captureLog(() => runMatrix(changed, store.db, fixtures, opsDoor(createOps({ model: changed, db: store.db }))));
      expect(follows.mismatches).toEqual([]);
      const { result: stale } = await captureLog(() => runMatrix(changed, store.db, fixtures, opsDoor(createOps({ model: testModel, db: store.db }))));
      expect(stale.mismatches.length).toBeGreaterThan(0);
      for (const line of stale.mismatches) expect(line).toMatch(/^ops agent × (comment × update|ticket × delete)/);
    });
  });
});
