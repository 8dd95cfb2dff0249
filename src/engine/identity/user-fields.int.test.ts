import { beforeAll, describe, expect, it } from 'vitest';
import { NinefoldError } from '../errors/ninefold-error';
import { ninefoldError } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { desiredSchema } from '../store/schema/desired';
import { introspectSchema } from '../store/schema/introspect';
import { planSchema } from '../store/schema/plan';
import type { Store } from '../store/types';
import { createIdentity } from './identity';
import type { Identity } from './types';
import { teamsSpec } from '@testing/engine/user-fields';
import { SYSTEM_ACTOR } from './system-actor';

const model = buildModel(teamsSpec);
const withoutFields = buildModel({ ...teamsSpec, users: undefined });
const PASSWORD = 'correct horse battery staple';
let counter = 0;

forEachDatabase('user fields (users.fields) on accounts and actors', (database) => {
  let store: Store;
  let identity: Identity;
  let teams: { red: number; blue: number };

  const newUser = (roles: string[] = ['member'], fields?: Record<string, unknown>) =>
    identity.createUser(SYSTEM_ACTOR, {
      email: `fields${++counter}@example.com`,
      password: PASSWORD,
      roles,
      ...(fields ? { fields } : {}),
    });
  const insertTeam = async (name: string) =>
    Number((await store.db.insertInto('team').values({ name }).returning('id').executeTakeFirstOrThrow()).id);
  const fieldErrors = async (promise: Promise<unknown>) =>
    (await ninefoldError(promise)).fieldErrors?.map((e) => `${e.field}: ${e.message}`);

  beforeAll(async () => {
    // First without user fields, as a database made before the spec had any: the sync adds them.
    const before = await database.openSynced(withoutFields);
    await createIdentity(before.db, Object.keys(withoutFields.roles)).createUser(SYSTEM_ACTOR, {
      email: 'old@example.com',
      password: PASSWORD,
      roles: ['member'],
    });
    await before.close();
    store = await database.openSynced(model);
    identity = createIdentity(store.db, Object.keys(model.roles), {}, model);
    teams = { red: await insertTeam('Red'), blue: await insertTeam('Blue') };
  });

  it('adds a column per field to nf_user, with keys that empty them and indexes', async () => {
    const catalogue = await introspectSchema(store.db);
    const user = catalogue.tables.find((t) => t.name === 'nf_user')!;
    const column = (name: string) => user.columns.find((c) => c.name === name);
    expect(column('f_team')).toMatchObject({ type: 'bigint', nullable: true });
    expect(column('f_boss')).toMatchObject({ type: 'bigint', nullable: true });
    expect(column('f_level')).toMatchObject({ type: 'text', nullable: false });
    expect(column('f_desk')).toMatchObject({ type: 'integer', nullable: true });
    expect(column('f_remote')).toMatchObject({ type: 'boolean', nullable: true });
    const keys = user.constraints
      .filter((c) => c.kind === 'foreign')
      .map((c) => `${c.columns.join()} → ${c.references?.table} ${c.onDelete}`);
    expect(keys).toEqual(expect.arrayContaining(['f_team → team set null', 'f_boss → nf_user set null']));
    expect(user.indexes.map((i) => i.columns.join())).toEqual(expect.arrayContaining(['f_team', 'f_boss']));
  });

  it('refuses to drop the column of a user field taken out of the spec, naming the field', async () => {
    const { desk: _desk, ...fields } = teamsSpec.users.fields;
    const plan = planSchema(desiredSchema(buildModel({ ...teamsSpec, users: { fields } })), await introspectSchema(store.db));
    expect(plan.additive).toEqual([]);
    expect(plan.destructive.map((step) => step.description)).toEqual([
      'drop column nf_user.f_desk (user field "desk" is no longer in the spec; its data would be lost)',
    ]);
  });

  it('gave the accounts that existed the default of a required field', async () => {
    const old = (await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.email === 'old@example.com')!;
    expect(old.fields).toEqual({ team: null, boss: null, level: 'junior', desk: null, remote: null });
  });

  it('creates an account with fields, defaults for the rest, and lists them', async () => {
    const user = await newUser(['member'], { team: String(teams.red), desk: '12' });
    const listed = (await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.id === user.id)!;
    expect(listed.fields).toEqual({ team: teams.red, boss: null, level: 'junior', desk: 12, remote: null });
  });

  it('refuses bad fields on create with every message, and creates nothing', async () => {
    const email = `refused${++counter}@example.com`;
    const errors = await fieldErrors(
      identity.createUser(SYSTEM_ACTOR, { email, password: PASSWORD, roles: ['member'], fields: { team: 999999, desk: 0, colour: 'red' } }),
    );
    expect(errors).toEqual([
      'team: Team: no record #999999.',
      'desk: Desk must be between 1 and 500.',
      'colour: "colour" is not a user field (user fields: team, boss, level, desk, remote).',
    ]);
    expect((await identity.listUsers(SYSTEM_ACTOR)).some((u) => u.email === email)).toBe(false);
  });

  it('carries the fields in the actor of a session and of an API token, in the same single query', async () => {
    const manager = await newUser(['manager']);
    const user = await newUser(['member'], { team: teams.blue, boss: manager.id, level: 'senior', remote: true });
    const session = (await identity.signIn(user.email, PASSWORD, { ip: '192.0.2.1' })).session;
    const { token } = await identity.createApiToken(user.id, { name: 'script' });
    const expected = {
      userId: user.id,
      email: user.email,
      name: user.name,
      roles: ['member'],
      fields: { team: teams.blue, boss: manager.id, level: 'senior', desk: null, remote: true },
    };
    await store.db.selectFrom('nf_user').select('id').limit(1).execute();
    for (const lookup of [() => identity.actorForSession(session.token), () => identity.actorForApiToken(token)]) {
      const before = store.statementCount();
      const actor = await lookup();
      // One select (the token's first use also records when it was used).
      expect(store.statementCount() - before).toBeLessThanOrEqual(2);
      expect(actor).toEqual(expected);
    }
  });

  it('sets, changes and clears fields; the actor follows on the next request', async () => {
    const user = await newUser();
    const session = await identity.createSession(user.id);
    expect((await identity.actorForSession(session.token))?.fields?.team).toBeNull();
    expect((await identity.actorForSession(session.token))?.fields?.team).toBeNull();
    // Served from memory now (store/write-clock.ts)...
    const before = store.statementCount();
    await identity.actorForSession(session.token);
    expect(store.statementCount() - before).toBe(0);
    // ...until the administrator's change, which is a write and so ends it.
    const set = await identity.setUserFields(SYSTEM_ACTOR, user.id, { team: String(teams.red), remote: 'on' });
    expect(set.fields).toMatchObject({ team: teams.red, remote: true, level: 'junior' });
    expect((await identity.actorForSession(session.token))?.fields).toMatchObject({ team: teams.red, remote: true });
    await identity.setUserFields(SYSTEM_ACTOR, user.id, { team: teams.blue });
    expect((await identity.actorForSession(session.token))?.fields).toMatchObject({ team: teams.blue, remote: true });
    await identity.setUserFields(SYSTEM_ACTOR, user.id, { team: '', remote: null });
    expect((await identity.actorForSession(session.token))?.fields).toMatchObject({ team: null, remote: null });
  });

  it('refuses unknown names, bad values, missing records and users without the roles', async () => {
    const user = await newUser();
    const member = await newUser(['member']);
    expect(await fieldErrors(identity.setUserFields(SYSTEM_ACTOR, user.id, { squad: 1 }))).toEqual([
      'squad: "squad" is not a user field (user fields: team, boss, level, desk, remote).',
    ]);
    expect(await fieldErrors(identity.setUserFields(SYSTEM_ACTOR, user.id, { level: 'lead', desk: 'twelve', team: 'x' }))).toEqual([
      'team: Team must be the id of a record.',
      'level: Level must be one of: junior, senior.',
      'desk: Desk must be a whole number.',
    ]);
    expect(await fieldErrors(identity.setUserFields(SYSTEM_ACTOR, user.id, { team: 999999, boss: member.id }))).toEqual([
      'team: Team: no record #999999.',
      'boss: Boss must be a manager.',
    ]);
    expect(await fieldErrors(identity.setUserFields(SYSTEM_ACTOR, user.id, { level: '' }))).toEqual(['level: Level is required.']);
    expect((await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.id === user.id)?.fields).toEqual({
      team: null,
      boss: null,
      level: 'junior',
      desk: null,
      remote: null,
    });
  });

  it('answers NOT_FOUND for no such user', async () => {
    const error = await ninefoldError(identity.setUserFields(SYSTEM_ACTOR, 999999, { desk: 3 }));
    expect(error.code).toBe('NOT_FOUND');
  });

  it('empties the field when the team is deleted, and the actor sees it at once', async () => {
    const doomed = await insertTeam('Doomed');
    const user = await newUser(['member'], { team: doomed });
    const session = await identity.createSession(user.id);
    expect((await identity.actorForSession(session.token))?.fields?.team).toBe(doomed);
    await store.db.deleteFrom('team').where('id', '=', doomed).execute();
    expect((await identity.actorForSession(session.token))?.fields?.team).toBeNull();
  });

  it('gives invited people the defaults', async () => {
    const invite = await identity.createInvite(SYSTEM_ACTOR, { email: `invited${++counter}@example.com`, roles: ['member'] });
    const user = await identity.acceptInvite(invite.token, { name: 'Invited', password: PASSWORD });
    expect((await identity.listUsers(SYSTEM_ACTOR)).find((u) => u.id === user.id)?.fields).toEqual({
      team: null,
      boss: null,
      level: 'junior',
      desk: null,
      remote: null,
    });
  });
});

describe('an identity without the model', () => {
  it('refuses any field by name (no user fields to set)', async () => {
    const identity = createIdentity(null as never, []);
    const error = await identity.setUserFields(SYSTEM_ACTOR, 1, { team: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NinefoldError);
    expect((error as NinefoldError).fieldErrors).toEqual([
      { field: 'team', code: 'unknown_field', message: '"team" is not a user field (user fields: none).' },
    ]);
  });
});
