import { beforeAll, expect, it } from 'vitest';
import spec from '../seed/fixtures/events.spec';
import { buildModel } from '../spec/build';
import type { Condition } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { createActor, expectRefused, fieldCodes, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { evaluateCondition, actorContext } from '../condition/evaluate';
import { importCsv } from '../csv/import-csv';

/*
 * A set of users (src/engine/seed/fixtures/events.spec.ts: an event's organizers, users with the
 * role organizer, at most 3): organizers read, change and publish the events whose set includes
 * them, and nobody else's; staff everything. The set is written as ids, checked against the
 * role, read back ascending with names, told in the history, tested by conditions alike in SQL
 * and in memory, and imported from a CSV file by email.
 */

const model = buildModel(spec);

forEachDatabase('a users field (a set of users)', (database) => {
  let store: Store;
  let ops: Ops;
  let staff: Actor;
  let ann: Actor;
  let bob: Actor;
  let cy: Actor;
  let dee: Actor;

  const organizersOf = async (id: number) =>
    (await store.db.selectFrom('event__organizers').select('target_id').where('record_id', '=', id).orderBy('target_id').execute()).map(
      (r) => Number(r.target_id),
    );

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    staff = await createActor(store.db, ['staff'], 'Sam Staff');
    ann = await createActor(store.db, ['organizer'], 'Ann Organizer');
    bob = await createActor(store.db, ['organizer'], 'Bob Organizer');
    cy = await createActor(store.db, ['organizer'], 'Cy Organizer');
    dee = await createActor(store.db, ['organizer'], 'Dee Organizer');
  });

  it('writes the set as ids, ascending, refuses users without the role and more than maxItems', async () => {
    const made = await ops.create(staff, 'event', { name: 'Fair', organizers: [bob.userId, ann.userId, bob.userId] });
    expect(made.organizers).toEqual([ann.userId, bob.userId]);
    expect(await organizersOf(made.id)).toEqual([ann.userId, bob.userId]);
    const view = await ops.get(staff, 'event', made.id);
    expect(view.references.organizers).toMatchObject({ [ann.userId]: 'Ann Organizer', [bob.userId]: 'Bob Organizer' });

    const notHolder = await ninefoldError(ops.create(staff, 'event', { name: 'Bad', organizers: [staff.userId] }));
    expect(fieldCodes(notHolder)).toEqual(['organizers:user_role']);
    const tooMany = await ninefoldError(
      ops.create(staff, 'event', { name: 'Crowded', organizers: [ann.userId, bob.userId, cy.userId, dee.userId] }),
    );
    expect(fieldCodes(tooMany)).toEqual(['organizers:too_big']);
  });

  it('lets an organizer read, change and publish only the events whose set includes them', async () => {
    const made = await ops.create(staff, 'event', { name: 'Gala', organizers: [ann.userId] });
    const names = async (actor: Actor) => (await ops.list(actor, 'event', { limit: 100 })).rows.map((r) => r.name);
    expect(await names(ann)).toContain('Gala');
    expect(await names(bob)).not.toContain('Gala');

    const snapshot = () => ops.get(staff, 'event', made.id).then((v) => v.record);
    await expectRefused(snapshot, 'NOT_FOUND', () => ops.get(bob, 'event', made.id));
    await expectRefused(snapshot, 'NOT_FOUND', () => ops.update(bob, 'event', made.id, { name: 'Taken' }, made.version));
    await expectRefused(snapshot, 'NOT_FOUND', () => ops.transition(bob, 'event', made.id, 'publish', { version: made.version }));

    const changed = await ops.update(ann, 'event', made.id, { organizers: [ann.userId, bob.userId] }, made.version);
    expect(changed.organizers).toEqual([ann.userId, bob.userId]);
    const history = await ops.history(staff, 'event', made.id);
    expect(history.entries[0]?.changes.organizers).toEqual({ from: [ann.userId], to: [ann.userId, bob.userId] });
    // Bob is one of them now: he may publish it.
    const published = await ops.transition(bob, 'event', made.id, 'publish', { version: changed.version });
    expect(published.state).toBe('published');
  });

  it('reads a condition on the set as "includes", alike in SQL and in memory', async () => {
    await ops.create(staff, 'event', { name: 'Empty' });
    const conditions: Condition[] = [
      { field: 'organizers', op: 'eq', value: { actor: 'id' } },
      { field: 'organizers', op: 'ne', value: { actor: 'id' } },
      { field: 'organizers', op: 'present' },
      { field: 'organizers', op: 'absent' },
    ];
    const ids = async (actor: Actor, where?: Condition) => (await ops.list(actor, 'event', { limit: 100, where })).rows;
    const seen = new Map<string, number>();
    for (const actor of [staff, ann]) {
      const all = await ids(actor);
      for (const where of conditions) {
        const selected = (await ids(actor, where)).map((r) => r.id).sort();
        const judged = all
          .filter((r) => evaluateCondition(model, where, r, new Date(), actorContext(actor)))
          .map((r) => r.id)
          .sort();
        expect({ where, ids: selected }).toEqual({ where, ids: judged });
        seen.set(`${actor.name} ${JSON.stringify(where)}`, selected.length);
      }
    }
    // Ann sees only events she organizes: all include her; staff see an empty set too.
    expect(seen.get(`Ann Organizer ${JSON.stringify(conditions[0])}`)).toBeGreaterThan(0);
    expect(seen.get(`Ann Organizer ${JSON.stringify(conditions[1])}`)).toBe(0);
    expect(seen.get(`Sam Staff ${JSON.stringify(conditions[3])}`)).toBeGreaterThan(0);
  });

  it('imports a set from emails, names and ids joined by ";", refusing a name that matches no one', async () => {
    const csv = (text: string) => new TextEncoder().encode(text);
    const report = await importCsv(
      ops,
      model,
      staff,
      'event',
      csv(['Name,Organizers', `Picnic,${ann.email}; Cy Organizer ;#${bob.userId}`, 'Ball,nobody@example.test'].join('\n')),
      { maxBytes: 1 << 20, goodRows: true },
    );
    expect(report).toMatchObject({ rows: 2, created: 1 });
    expect(report.refused.map((r) => [r.line, r.problems.map((p) => p.column)])).toEqual([[3, ['Organizers']]]);
    expect(report.refused[0]?.problems[0]?.message).toMatch(/nobody@example\.test/);
    const picnic = (await ops.list(staff, 'event', { limit: 100 })).rows.find((r) => r.name === 'Picnic')!;
    expect(picnic.organizers).toEqual([ann.userId, bob.userId, cy.userId].sort((a, b) => a - b));
  });
});
