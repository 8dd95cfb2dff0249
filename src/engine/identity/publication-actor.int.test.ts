import { beforeAll, expect, it } from 'vitest';
import publication from '../../../examples/publication/ninefold.spec';
import type { Engine } from '../engine';
import { openSyncedQuickly } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { buildModel } from '../spec/build';
import { engineOnStore } from '@testing/engine/store-outage';
import { forEachDatabase } from '@testing/engine/store';
import { SYSTEM_ACTOR } from './system-actor';

const model = buildModel(publication);
const PASSWORD = 'correct horse battery staple';

/**
 * End to end through the stored user field: a writer's team is set on their account (as an
 * administrator would), their session's actor carries it, and the scopes `{ actor: 'team' }` of
 * the publication spec decide what they see and where they may write, with no hand-built actor.
 */
forEachDatabase('the publication: teams from the account, through the session', (database) => {
  let engine: Engine;
  let admin: Actor;
  const teams: Record<string, number> = {};

  const signedIn = async (email: string): Promise<Actor> => {
    const { session } = await engine.identity.signIn(email, PASSWORD, { ip: '192.0.2.7' });
    return (await engine.identity.actorForSession(session.token))!;
  };

  beforeAll(async () => {
    engine = engineOnStore(await openSyncedQuickly(database, model), model);
    await engine.identity.createUser(SYSTEM_ACTOR, { email: 'root@example.com', password: PASSWORD, roles: ['admin'] });
    admin = await signedIn('root@example.com');
    for (const name of ['Sport desk', 'Culture desk']) teams[name] = (await engine.ops.create(admin, 'team', { name })).id;
    for (const [team, title] of [
      ['Sport desk', 'Cup final'],
      ['Culture desk', 'New opera'],
    ] as const) {
      await engine.ops.create(admin, 'article', { title, team: teams[team] });
    }
  });

  it('a writer whose account is in a team sees its articles only, and writes only for it', async () => {
    await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'wes@example.com',
      password: PASSWORD,
      roles: ['writer'],
      fields: { team: teams['Sport desk'] },
    });
    const writer = await signedIn('wes@example.com');
    expect(writer.fields).toEqual({ team: teams['Sport desk'] });
    expect((await engine.ops.list(writer, 'article')).rows.map((r) => r.title)).toEqual(['Cup final']);
    await engine.ops.create(writer, 'article', { title: 'Derby preview', team: teams['Sport desk'] });
    // Another team is one they may not read, so it is refused as a team that does not exist.
    await expect(engine.ops.create(writer, 'article', { title: 'Ballet review', team: teams['Culture desk'] })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: [expect.objectContaining({ field: 'team', code: 'unknown_reference' })],
    });
    expect((await engine.ops.list(writer, 'article')).rows.map((r) => r.title).sort()).toEqual(['Cup final', 'Derby preview']);
  });

  it('moving the writer to another team changes what their next request sees', async () => {
    await engine.identity.createUser(SYSTEM_ACTOR, { email: 'mia@example.com', password: PASSWORD, roles: ['writer'] });
    const { session } = await engine.identity.signIn('mia@example.com', PASSWORD, { ip: '192.0.2.7' });
    const actor = async () => (await engine.identity.actorForSession(session.token))!;
    // No team yet: the scope `team = my team` matches nothing.
    expect((await engine.ops.list(await actor(), 'article')).rows).toEqual([]);
    const mia = (await engine.identity.listUsers(SYSTEM_ACTOR)).find((u) => u.email === 'mia@example.com')!;
    await engine.identity.setUserFields(admin, mia.id, { team: String(teams['Culture desk']) });
    expect((await engine.ops.list(await actor(), 'article')).rows.map((r) => r.title)).toEqual(['New opera']);
    await engine.identity.setUserFields(admin, mia.id, { team: '' });
    expect((await engine.ops.list(await actor(), 'article')).rows).toEqual([]);
  });
});
