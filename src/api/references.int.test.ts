import { beforeAll, expect, it } from 'vitest';
import type { Engine } from '@/engine/engine';
import type { UserAccount } from '@/engine/identity/types';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { submitCreate, submitUpdate } from '@/server/record-actions';
import { initialRecordFormState, VERSION_INPUT } from '@/ui/forms/state';
import { apiClient, expectProblem, openTestEngine, type ApiClient } from '@testing/api/api';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/*
 * A references field through the API (every answer checked against the OpenAPI document) and
 * the pages' server actions: an array of ids in and out, "has any of" filters, and a form that
 * posts one value per chosen record after an empty one.
 */
const model = buildModel({
  name: 'news',
  roles: { editor: { label: 'Editor' } },
  entities: {
    tag: { titleField: 'name', fields: { name: { type: 'text', required: true } } },
    article: {
      titleField: 'title',
      fields: { title: { type: 'text', required: true }, tags: { type: 'references', to: 'tag', maxItems: 3 } },
    },
  },
  screens: { lists: { article: { columns: ['title', 'tags'], filters: ['tags'] } } },
  permissions: {
    tag: { editor: { list: true, read: true, create: true } },
    article: { editor: { list: true, read: true, create: true, update: true } },
  },
});

const form = (entries: readonly [string, string][], version?: number) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  if (version !== undefined) data.append(VERSION_INPUT, String(version));
  return data;
};

forEachDatabase('references fields through the doors', (database) => {
  let engine: Engine;
  let api: ApiClient;
  let editor: UserAccount;
  let token: string;
  const tag: Record<string, number> = {};

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    editor = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'editor@example.com',
      password: 'correct horse battery',
      roles: ['editor'],
    });
    token = (await engine.identity.createApiToken(editor.id, { name: 'tests' })).token;
    for (const name of ['News', 'Sport', 'Culture']) tag[name] = (await api.call('POST', '/tags', { token, body: { name } })).body.id;
  });

  it('creates, reads, replaces and filters as arrays of ids', async () => {
    const created = await api.call('POST', '/articles', { token, body: { title: 'Derby', tags: [tag.Sport, tag.News, tag.Sport] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.tags).toEqual([tag.News, tag.Sport]);
    const read = await api.call('GET', `/articles/${created.body.id}`, { token });
    expect(read.body.tags).toEqual([tag.News, tag.Sport]);
    const patched = await api.call('PATCH', `/articles/${created.body.id}`, {
      token,
      body: { tags: [tag.Culture] },
      headers: { 'if-match': `"${created.body.version}"` },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.tags).toEqual([tag.Culture]);
    const history = await api.call('GET', `/articles/${created.body.id}/history`, { token });
    expect(history.status, history.text).toBe(200);
    expect(history.body.items[0].changes.tags).toEqual({ from: [tag.News, tag.Sport], to: [tag.Culture] });
    const untagged = await api.call('POST', '/articles', { token, body: { title: 'Quiet day', tags: null } });
    expect(untagged.body.tags).toEqual([]);
    const any = await api.call('GET', `/articles?tags=${tag.Culture},${tag.News}`, { token });
    expect(any.body.items.map((a: { id: number }) => a.id)).toEqual([created.body.id]);
    expectProblem(await api.call('GET', '/articles?tags=news', { token }), 422, 'VALIDATION_FAILED');
    expectProblem(await api.call('GET', '/articles?sort=tags', { token }), 422, 'VALIDATION_FAILED');
  });

  it('refuses what is not a set of readable ids as a validation problem on the field', async () => {
    for (const tags of [['x'], [tag.News, tag.Sport, tag.Culture, 999_999], [999_999], 'a']) {
      const answer = await api.call('POST', '/articles', { token, body: { title: 'Refused', tags } });
      expectProblem(answer, 422, 'VALIDATION_FAILED');
      expect(answer.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/tags']);
    }
  });

  it('takes a form posting one value per chosen record, and none to empty the set', async () => {
    const actor: Actor = { userId: editor.id, email: editor.email, name: editor.name, roles: editor.roles };
    const created = await submitCreate(
      engine,
      actor,
      'article',
      initialRecordFormState({}),
      form([
        ['title', 'From the form'],
        ['tags', ''],
        ['tags', String(tag.Sport)],
        ['tags', String(tag.News)],
      ]),
      'UTC',
    );
    expect(created).toMatchObject({ redirectTo: expect.stringMatching(/^\/articles\/\d+$/) });
    const id = Number(/(\d+)$/.exec((created as { redirectTo: string }).redirectTo)?.[1]);
    const stored = await engine.ops.get(actor, 'article', id);
    expect(stored.record.tags).toEqual([tag.News, tag.Sport]);
    await submitUpdate(engine, actor, 'article', id, initialRecordFormState({}), form([['tags', '']], stored.record.version), 'UTC');
    expect((await engine.ops.get(actor, 'article', id)).record.tags).toEqual([]);
  });
});
