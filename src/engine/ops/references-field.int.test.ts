import { beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { syncSchema } from '../store/schema/sync';
import { forgetCachedReads } from '../store/write-clock';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import { countRows, createActor, expectRefused, fieldCodes, ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import type { RecordData } from './types';
import type { Actor } from '../ground/actor';

/**
 * A references field (many-to-many): articles with tags. Agents see every tag; customers only
 * the public ones, so a customer neither sees nor may attach a private tag, and never drops one
 * that an agent attached.
 */
const model = buildModel({
  name: 'library',
  roles: { agent: { label: 'Agent' }, customer: { label: 'Customer' } },
  entities: {
    tag: {
      titleField: 'name',
      fields: { name: { type: 'text', required: true, unique: true }, private: { type: 'boolean', default: false } },
    },
    article: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        tags: { type: 'references', to: 'tag', maxItems: 3 },
      },
    },
    shelf: {
      titleField: 'name',
      fields: { name: { type: 'text', required: true }, topics: { type: 'references', to: 'tag', required: true } },
    },
  },
  screens: { lists: { article: { columns: ['title', 'tags'], filters: ['tags'] } } },
  permissions: {
    tag: {
      agent: { list: true, read: true, create: true, delete: true },
      customer: {
        list: { where: { field: 'private', op: 'eq', value: false } },
        read: { where: { field: 'private', op: 'eq', value: false } },
      },
    },
    article: {
      agent: { list: true, read: true, create: true, update: true, delete: true },
      customer: { list: true, read: true, create: true, update: true },
    },
    shelf: { agent: { list: true, read: true, create: true, update: true } },
  },
});

forEachDatabase('references fields', (database) => {
  let store: Store;
  let ops: Ops;
  let agent: Actor;
  let customer: Actor;
  let news: number, sport: number, culture: number, weather: number, secret: number;

  const tagsOf = async (id: number) =>
    (await store.db.selectFrom('article__tags').select('target_id').where('record_id', '=', id).orderBy('target_id').execute()).map((r) =>
      Number(r.target_id),
    );

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    agent = await createActor(store.db, ['agent'], 'Ann Agent');
    customer = await createActor(store.db, ['customer'], 'Cy Customer');
    const tag = async (name: string) => (await ops.create(agent, 'tag', { name })).id;
    [news, sport, culture, weather] = await Promise.all([tag('News'), tag('Sport'), tag('Culture'), tag('Weather')]);
    secret = (await ops.create(agent, 'tag', { name: 'Embargoed', private: true })).id;
  });

  it('writes a set from ids, deduplicated and ascending, and reads it back with titles', async () => {
    const created = await ops.create(agent, 'article', { title: 'Match report', tags: [sport, news, sport] });
    expect(created.tags).toEqual([news, sport].sort((a, b) => a - b));
    expect(await tagsOf(created.id)).toEqual([news, sport].sort((a, b) => a - b));
    const view = await ops.get(agent, 'article', created.id);
    expect(view.record.tags).toEqual(created.tags);
    expect(view.references.tags).toEqual({ [news]: 'News', [sport]: 'Sport' });
    // Forms post strings: one id, or ids joined by commas.
    expect((await ops.create(agent, 'article', { title: 'From a form', tags: `${culture},${news}` })).tags).toEqual(
      [news, culture].sort((a, b) => a - b),
    );
    expect((await ops.create(agent, 'article', { title: 'None', tags: null })).tags).toEqual([]);
  });

  it('replaces the set on update, bumping the version, with additions and removals in the history', async () => {
    const article = await ops.create(agent, 'article', { title: 'Budget', tags: [news, sport] });
    const updated = await ops.update(agent, 'article', article.id, { tags: [sport, culture] }, article.version);
    expect(updated.version).toBe(article.version + 1);
    expect(updated.tags).toEqual([sport, culture].sort((a, b) => a - b));
    expect(await tagsOf(article.id)).toEqual([sport, culture].sort((a, b) => a - b));
    const history = await ops.history(agent, 'article', article.id);
    expect(history.entries[0]!.changes.tags).toEqual({
      from: [news, sport].sort((a, b) => a - b),
      to: [sport, culture].sort((a, b) => a - b),
    });
    // A stale version changes nothing.
    await expectRefused(
      () => tagsOf(article.id),
      'STALE_VERSION',
      () => ops.update(agent, 'article', article.id, { tags: [] }, article.version),
    );
    // An update of other fields keeps the set.
    const renamed = await ops.update(agent, 'article', article.id, { title: 'Budget 2' }, updated.version);
    expect(renamed.tags).toEqual(updated.tags);
  });

  it('refuses what is not a set of ids, more than maxItems, and ids of no readable record', async () => {
    const article = await ops.create(agent, 'article', { title: 'Refusals' });
    const snapshot = () => tagsOf(article.id);
    for (const tags of [['x'], [0], [1.5], 'a,b', { id: 1 }]) {
      const error = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
        ops.update(agent, 'article', article.id, { tags }, article.version),
      );
      expect(error.fieldErrors[0]!.field).toBe('tags');
    }
    const tooMany = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
      ops.update(agent, 'article', article.id, { tags: [news, sport, culture, weather] }, article.version),
    );
    expect(fieldCodes(tooMany)).toEqual(['tags:too_big']);
    const missing = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
      ops.update(agent, 'article', article.id, { tags: [news, 999_999] }, article.version),
    );
    expect(missing.fieldErrors).toEqual([{ field: 'tags', code: 'unknown_reference', message: 'Tags: no record #999999.' }]);
    // A private tag is, to a customer, a tag that does not exist.
    const hidden = await expectRefused(snapshot, 'VALIDATION_FAILED', () =>
      ops.update(customer, 'article', article.id, { tags: [secret] }, article.version),
    );
    expect(hidden.fieldErrors).toEqual([{ field: 'tags', code: 'unknown_reference', message: `Tags: no record #${secret}.` }]);
  });

  it('a required references field needs at least one', async () => {
    const error = await ninefoldError(ops.create(agent, 'shelf', { name: 'Empty', topics: [] }));
    expect(fieldCodes(error)).toEqual(['topics:required']);
    expect((await ops.create(agent, 'shelf', { name: 'Full', topics: [news] })).topics).toEqual([news]);
  });

  it('shows each viewer only the referenced records they may read, and keeps the others on their writes', async () => {
    const article = await ops.create(agent, 'article', { title: 'Leak', tags: [news, secret] });
    const seen = await ops.get(customer, 'article', article.id);
    expect(seen.record.tags).toEqual([news]);
    expect(seen.references.tags).toEqual({ [news]: 'News' });
    const listed = (await ops.list(customer, 'article', { filters: { tags: String(news) } })).rows.find((r) => r.id === article.id);
    expect(listed?.tags).toEqual([news]);
    // The customer replaces what they see; the private tag stays.
    const written = await ops.update(customer, 'article', article.id, { tags: [sport] }, article.version);
    expect(written.tags).toEqual([sport]);
    expect(await tagsOf(article.id)).toEqual([sport, secret].sort((a, b) => a - b));
    expect((await ops.get(agent, 'article', article.id)).record.tags).toEqual([sport, secret].sort((a, b) => a - b));
    // The history names to each only what they may read.
    const theirs = await ops.history(customer, 'article', article.id);
    expect(theirs.entries.map((e) => e.changes.tags)).toEqual([
      { from: [news], to: [sport] },
      { from: [], to: [news] },
    ]);
    const ours = await ops.history(agent, 'article', article.id);
    expect(ours.entries[0]!.changes.tags).toEqual({
      from: [news, secret].sort((a, b) => a - b),
      to: [sport, secret].sort((a, b) => a - b),
    });
  });

  it('filters by "has any of"', async () => {
    const a = await ops.create(agent, 'article', { title: 'Only weather', tags: [weather] });
    const b = await ops.create(agent, 'article', { title: 'Weather and culture', tags: [weather, culture] });
    const c = await ops.create(agent, 'article', { title: 'Untagged filter' });
    const ids = async (value: string) => (await ops.list(agent, 'article', { filters: { tags: value }, limit: 500 })).rows.map((r) => r.id);
    expect(await ids(String(weather))).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await ids(String(weather))).not.toContain(c.id);
    const either = await ids(`${culture},${weather}`);
    expect(either).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(either).not.toContain(c.id);
    expect((await ops.count(agent, 'article', { filters: { tags: String(weather) } })).count).toBe(2);
    for (const bad of ['x', '1,,2', '0'])
      expect((await ninefoldError(ops.list(agent, 'article', { filters: { tags: bad } }))).code).toBe('VALIDATION_FAILED');
  });

  it('refuses sorting by a set', async () => {
    expect((await ninefoldError(ops.list(agent, 'article', { sort: 'tags' }))).code).toBe('VALIDATION_FAILED');
  });

  it('takes a deleted tag off every article (cascade), and a deleted article takes its pairs along', async () => {
    const doomed = await ops.create(agent, 'tag', { name: 'Doomed' });
    const article = await ops.create(agent, 'article', { title: 'Soon untagged', tags: [doomed.id, news] });
    await ops.delete(agent, 'tag', doomed.id);
    expect((await ops.get(agent, 'article', article.id)).record.tags).toEqual([news]);
    const pairs = await countRows(store.db, 'article__tags');
    await ops.delete(agent, 'article', article.id);
    expect(await countRows(store.db, 'article__tags')).toBe(pairs - 1);
  });

  it('creates many with their sets (an import)', async () => {
    const result = await ops.createMany(agent, 'article', [
      { title: 'Imported one', tags: `${news};${sport}` },
      { title: 'Imported two', tags: [culture] },
    ]);
    expect(result.created).toBe(2);
    const rows = (await ops.list(agent, 'article', { q: undefined, limit: 500 })).rows.filter((r) =>
      String(r.title).startsWith('Imported'),
    );
    expect(rows.map((r) => r.tags).sort()).toEqual([[news, sport].sort((a, b) => a - b), [culture]].sort());
  });

  it('adds the join table of a new references field to a database in use (schema sync)', async () => {
    const spec = model.spec;
    const grown = buildModel({
      ...spec,
      entities: {
        ...spec.entities,
        tag: { ...spec.entities!.tag, fields: { ...spec.entities!.tag!.fields, related: { type: 'references', to: 'article' } } },
      },
    });
    await syncSchema(store, grown);
    const pairs = await store.db.selectFrom('tag__related').select('record_id').execute();
    expect(pairs).toEqual([]);
    const grownOps = createOps({ model: grown, db: store.db });
    const article = await grownOps.create(agent, 'article', { title: 'Linked' });
    expect((await grownOps.create(agent, 'tag', { name: 'Linking', related: [article.id] })).related).toEqual([article.id]);
  });

  describe('cost', () => {
    let many: RecordData[];
    beforeAll(async () => {
      many = [];
      for (let i = 0; i < 40; i++)
        many.push(await ops.create(agent, 'article', { title: `Bulk ${i}`, tags: [news, i % 2 ? sport : culture] }));
    });

    async function statementsOf(run: () => Promise<unknown>): Promise<number> {
      forgetCachedReads(store.db);
      const before = store.statementCount();
      await run();
      return store.statementCount() - before;
    }

    it('a page of 40 rows with sets costs what a page of 4 costs', async () => {
      const small = await statementsOf(async () => expect((await ops.list(agent, 'article', { limit: 4 })).rows).toHaveLength(4));
      const large = await statementsOf(async () => expect((await ops.list(agent, 'article', { limit: 40 })).rows).toHaveLength(40));
      expect(large).toBe(small);
      // The page (sets included), the users, the tags' titles.
      expect(small).toBeLessThanOrEqual(3);
      expect(many).toHaveLength(40);
    });
  });
});
