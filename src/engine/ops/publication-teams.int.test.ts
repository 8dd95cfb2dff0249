import { beforeAll, expect, it } from 'vitest';
import publication from '../../../examples/publication/ninefold.spec';
import { createIdentity } from '../identity/identity';
import { buildModel } from '../spec/build';
import { describeMarkdown } from '../spec/describe';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/** The acceptance spec's newsroom: teams through a user field, and four eyes on publishing. */
const model = buildModel(publication);

forEachDatabase('the newsroom: teams in scopes, and an editor never publishes their own article', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let counter = 0;

  async function member(roles: readonly string[], team: number | null): Promise<Actor> {
    counter += 1;
    const account = await createIdentity(store.db, Object.keys(model.roles)).createUser(SYSTEM_ACTOR, {
      email: `news.${process.pid}.${counter}@example.com`,
      password: 'correct horse battery',
      name: `Member ${counter}`,
      roles,
    });
    return { userId: account.id, email: account.email, name: account.name, roles: account.roles, fields: { team } };
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    admin = await member(['admin'], null);
  });

  it("writers and editors see their team's articles only; an editor publishes a writer's, never their own", async () => {
    const sport = await ops.create(admin, 'team', { name: 'Sport desk' });
    const culture = await ops.create(admin, 'team', { name: 'Culture desk' });
    const writer = await member(['writer'], sport.id);
    const editor = await member(['editor'], sport.id);
    const colleague = await member(['editor'], sport.id);
    const outsider = await member(['editor'], culture.id);

    const article = await ops.create(writer, 'article', { title: 'Derby day', section: 'sport', team: sport.id });
    // Another desk is not even readable to them: refused as an unknown team.
    const elsewhere = await ninefoldError(ops.create(writer, 'article', { title: 'Not my desk', section: 'culture', team: culture.id }));
    expect(elsewhere.fieldErrors.map((e) => `${e.field}:${e.code}`)).toEqual(['team:unknown_reference']);
    expect((await ops.list(editor, 'article', { limit: 50 })).rows.map((r) => r.id)).toContain(article.id);
    expect((await ops.list(outsider, 'article', { limit: 50 })).rows.map((r) => r.id)).not.toContain(article.id);
    expect((await ops.list(writer, 'team', { limit: 50 })).rows.map((r) => r.id)).toEqual([sport.id]);

    const submitted = await ops.transition(writer, 'article', article.id, 'submit', { version: article.version });
    expect((await ops.transition(editor, 'article', article.id, 'publish', { version: submitted.version })).state).toBe('published');

    const own = await ops.create(editor, 'article', { title: 'Editorial', section: 'news', team: sport.id });
    const review = await ops.transition(editor, 'article', own.id, 'submit', { version: own.version });
    const refusal = await ninefoldError(ops.transition(editor, 'article', own.id, 'publish', { version: review.version }));
    expect(refusal.message).toBe('Someone other than the author must publish it.');
    expect((await ops.transition(colleague, 'article', own.id, 'publish', { version: review.version })).state).toBe('published');
  });

  it('reads the scopes as words on /spec', () => {
    const text = describeMarkdown(model);
    expect(text).toContain('where team is your team');
    expect(text).toContain('author is not you');
  });
});
