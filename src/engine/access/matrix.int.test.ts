import { beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../log';
import { createOps } from '../ops/create-ops';
import { openSyncedQuickly, testModel, testSpec } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import {
  MATRIX_TIMEOUT_MS,
  createMatrixFixtures,
  expectedMatrix,
  opsDoor,
  runMatrix,
  type MatrixFixtures,
} from '@testing/access-matrix/run';

/*
 * The permission matrix of the helpdesk (plus `contact`, an entity without permissions), derived
 * from the spec and asked of ops, cell by cell. The server actions and the REST API are asked the
 * same matrix in src/server/record-actions.int.test.ts and src/api/access-matrix.int.test.ts.
 */

/** The helpdesk with one grant taken away (agents may no longer edit comments) and one added (agents may delete tickets). */
function changedSpec(): AppSpec {
  const permissions = testSpec.permissions!;
  const { update: _removed, ...agentOnComments } = permissions.comment!.agent!;
  return {
    ...testSpec,
    permissions: {
      ...permissions,
      ticket: { ...permissions.ticket, agent: { ...permissions.ticket!.agent, delete: true } },
      comment: { ...permissions.comment, agent: agentOnComments },
    },
  };
}

/**
 * The helpdesk with transition grants that narrow what `allow` says: agents (allowed by name)
 * resolve open tickets only, not pending ones; customers (allowed as the requester, within the
 * reopen window) reopen their own tickets, which does not lift the window.
 */
function narrowedTransitionsSpec(): AppSpec {
  const permissions = testSpec.permissions!;
  const { agent, customer } = permissions.ticket!;
  return {
    ...testSpec,
    permissions: {
      ...permissions,
      ticket: {
        ...permissions.ticket,
        agent: { ...agent, transitions: { resolve: { where: { field: 'state', op: 'eq', value: 'open' } } } },
        customer: { ...customer, transitions: { reopen: { own: 'requester' } } },
      },
    },
  };
}

/** The label of a ticket case of the matrix. */
const ticket = (requester: string, state: string, resolved = 'long ago') =>
  `[requester: ${requester}, state: "${state}", resolvedAt: ${resolved}]`;

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
    expect([...outcomes].sort()).toEqual(['allowed', 'conditionCode', 'final', 'forbidden', 'forbiddenField', 'hidden', 'notAllowed']);
    // Customers' scopes read their organization (a user field): one of them has moved to another since writing their tickets.
    expect(fixtures.users.map((u) => u.persona.name)).toEqual([
      'admin',
      'agent',
      'customer',
      'no role',
      'admin+agent+customer',
      'customer moved to another team',
    ]);
    // A few cells read straight from the spec.
    expect(cells.get(`customer × ticket × read ${ticket('own', 'closed')}`)).toBe('allowed');
    expect(cells.get(`customer × ticket × read ${ticket("another's", 'new')}`)).toBe('hidden');
    // A scope on the user's fields: a colleague of the same organization opened it (requester.organization is theirs).
    expect(cells.get(`customer × ticket × read ${ticket("a colleague's", 'new')}`)).toBe('allowed');
    expect(cells.get(`customer × ticket × update ${ticket("a colleague's", 'open')}`)).toBe('forbidden');
    expect(cells.get(`agent × ticket × read ${ticket("a colleague's", 'new')}`)).toBe('allowed');
    expect(cells.get(`customer × ticket × update ${ticket('own', 'closed')}`)).toBe('final');
    expect(cells.get(`agent × ticket × update ${ticket("another's", 'closed')}`)).toBe('final');
    expect(cells.get(`customer × ticket × update ${ticket('own', 'resolved')}`)).toBe('forbidden');
    expect(cells.get(`customer × ticket × update ${ticket("another's", 'open')}`)).toBe('hidden');
    // Moved to another organization: the former colleagues' tickets are out of sight, for every action; their own are not.
    expect(cells.get(`customer moved to another team × ticket × read ${ticket("a colleague's", 'open')}`)).toBe('hidden');
    expect(cells.get(`customer moved to another team × ticket × update ${ticket("a colleague's", 'open')}`)).toBe('hidden');
    expect(cells.get(`customer moved to another team × ticket × reply ${ticket("a colleague's", 'pending')}`)).toBe('hidden');
    expect(cells.get(`customer moved to another team × ticket × update ${ticket('own', 'open')}`)).toBe('allowed');
    // Transitions: who from `allow`, and an owner's window with the spec's own code.
    expect(cells.get(`customer × ticket × reply ${ticket('own', 'pending')}`)).toBe('allowed');
    expect(cells.get(`customer × ticket × reply ${ticket("a colleague's", 'pending')}`)).toBe('notAllowed');
    expect(cells.get(`customer × ticket × reopen ${ticket('own', 'resolved', 'far ahead')}`)).toBe('allowed');
    expect(cells.get(`customer × ticket × reopen ${ticket('own', 'resolved')}`)).toBe('conditionCode');
    expect(cells.get(`agent × ticket × reopen ${ticket("another's", 'resolved')}`)).toBe('allowed');
    expect(cells.get(`customer × ticket × resolve ${ticket('own', 'open')}`)).toBe('notAllowed');
    expect(cells.get("customer × ticket × create [requester: another's]")).toBe('forbiddenField');
    expect(cells.get('customer × comment × read [internal: true, ticket: readable]')).toBe('hidden');
    expect(cells.get('customer × comment × create [internal: false, ticket: not readable]')).toBe('hidden');
    expect(cells.get('customer × comment × create [internal: true, ticket: readable]')).toBe('forbiddenField');
    expect(cells.get(`agent × ticket × delete ${ticket("another's", 'new')}`)).toBe('forbidden');
    expect(cells.get('agent × contact × read [any record]')).toBe('forbidden');
    expect(cells.get('admin × contact × delete [any record]')).toBe('allowed');
    expect(cells.get(`no role × ticket × list ${ticket("another's", 'new')}`)).toBe('forbidden');
  });

  it(
    'holds through ops, and a refusal changes nothing',
    async () => {
      const { result } = await captureLog(() =>
        runMatrix(testModel, store.db, fixtures, opsDoor(createOps({ model: testModel, db: store.db }))),
      );
      expect(result.mismatches).toEqual([]);
      expect(result.checks).toBeGreaterThan(500);
    },
    MATRIX_TIMEOUT_MS,
  );

  it(
    'takes a transition only where both hold: who from `allow`, on which records from the grant',
    async () => {
      const narrowed = buildModel(narrowedTransitionsSpec());
      const before = expectedMatrix(testModel, fixtures);
      const after = expectedMatrix(narrowed, fixtures);
      const moved = [...before]
        .filter(([cell, outcome]) => after.get(cell) !== outcome)
        .map(([cell, outcome]) => `${cell}: ${outcome} → ${after.get(cell)}`);
      // Agents alone lose pending tickets (with every role, the admin's `allow` still covers them); nothing else moves.
      expect(moved).toContain(`agent × ticket × resolve ${ticket("another's", 'pending')}: allowed → notAllowed`);
      for (const line of moved) expect(line).toMatch(/^agent × ticket × resolve \[.*state: "pending"/);
      // The customer's own grant does not lift the window their `allow` entry sets: the spec's own refusal.
      expect(after.get(`customer × ticket × reopen ${ticket('own', 'resolved')}`)).toBe('conditionCode');
      const { result } = await captureLog(() =>
        runMatrix(narrowed, store.db, fixtures, opsDoor(createOps({ model: narrowed, db: store.db }))),
      );
      expect(result.mismatches).toEqual([]);
    },
    MATRIX_TIMEOUT_MS,
  );

  describe('has teeth', () => {
    const changed = buildModel(changedSpec());

    it('changes where a grant is taken away or added', () => {
      const before = expectedMatrix(testModel, fixtures);
      const after = expectedMatrix(changed, fixtures);
      const moved = [...before]
        .filter(([cell, outcome]) => after.get(cell) !== outcome)
        .map(([cell, outcome]) => `${cell}: ${outcome} → ${after.get(cell)}`);
      expect(moved.length).toBeGreaterThan(0);
      // Only agents' comment updates and ticket deletes move (agents alone, or with every role: then another role still grants them).
      for (const line of moved) expect(line).toMatch(/^agent × (comment × update|ticket × delete) /);
      expect(moved).toContain('agent × comment × update [internal: false, ticket: readable]: allowed → forbidden');
      expect(moved).toContain(`agent × ticket × delete ${ticket("another's", 'closed')}: forbidden → allowed`);
    });

    it(
      'the engine follows the changed spec, and the old one fails it',
      async () => {
        const { result: follows } = await captureLog(() =>
          runMatrix(changed, store.db, fixtures, opsDoor(createOps({ model: changed, db: store.db }))),
        );
        expect(follows.mismatches).toEqual([]);
        const { result: stale } = await captureLog(() =>
          runMatrix(changed, store.db, fixtures, opsDoor(createOps({ model: testModel, db: store.db }))),
        );
        expect(stale.mismatches.length).toBeGreaterThan(0);
        for (const line of stale.mismatches) expect(line).toMatch(/^ops agent × (comment × update|ticket × delete)/);
      },
      MATRIX_TIMEOUT_MS,
    );
  });
});
