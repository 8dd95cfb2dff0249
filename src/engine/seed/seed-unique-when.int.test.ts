import { beforeAll, expect, it } from 'vitest';
import publication from '../../../examples/publication/ninefold.spec';
import { openSyncedQuickly } from '@testing/engine/ops';
import { buildModel } from '../spec/build';
import type { AppModel } from '../spec/model';
import type { AppSpec } from '../spec/types';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { seedDemoData } from './seed-demo-data';

const quiet = { start: () => {}, advance: () => {}, stop: () => {} };
type Row = Record<string, unknown>;

async function seeded(model: AppModel, store: Store, count: number) {
  return seedDemoData(model, store.db, count, quiet);
}

async function rows(store: Store, table: string): Promise<Row[]> {
  return store.db.selectFrom(table).selectAll().orderBy('id').execute() as Promise<Row[]>;
}

/** The most records sharing one value among those `selected` keeps. */
function mostPer(list: Row[], key: (r: Row) => unknown, selected: (r: Row) => boolean): number {
  const counts = new Map<unknown, number>();
  for (const r of list.filter(selected)) counts.set(String(key(r)), (counts.get(String(key(r))) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

const featuredPublished = (a: Row) => a.featured === true && a.state === 'published';
const drafting = (a: Row) => a.state === 'draft' || a.state === 'review';

forEachDatabase('seed: the publication (uniqueWhen, references, user fields, limits per reference)', (database) => {
  const model = buildModel(publication);
  let store: Store;
  let articles: Row[];

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    await seeded(model, store, 150);
    articles = await rows(store, 'article');
  }, 120_000);

  it('features at most one published article per section, and some are featured', () => {
    expect(articles).toHaveLength(150);
    expect(mostPer(articles, (a) => a.section, featuredPublished)).toBe(1);
    expect(articles.filter((a) => a.featured === true).length).toBeGreaterThan(1);
    expect(articles.filter((a) => a.state === 'published').length).toBeGreaterThan(10);
  });

  it('keeps each team within its draft limit', () => {
    expect(mostPer(articles, (a) => a.team, drafting)).toBeLessThanOrEqual(publication.constants!.maxDraftsPerTeam.value as number);
  });

  it('gives writers and editors a team, and their articles that team', async () => {
    const users = await store.db.selectFrom('nf_user').select(['id', 'roles', 'f_team']).execute();
    const teamOf = new Map(users.map((u) => [Number(u.id), u.f_team === null ? null : Number(u.f_team)]));
    for (const u of users) if ((u.roles as string[]).some((r) => r === 'writer' || r === 'editor')) expect(u.f_team).not.toBeNull();
    const byStaff = articles.filter((a) => teamOf.get(Number(a.created_by)) !== null);
    expect(byStaff.length).toBeGreaterThan(50);
    for (const a of byStaff) expect(Number(a.team)).toBe(teamOf.get(Number(a.created_by)));
  });

  it('makes no account for visitors, whose contact-form enquiries nobody signed in sent', async () => {
    const users = await store.db.selectFrom('nf_user').select('roles').execute();
    expect(users.filter((u) => (u.roles as string[]).includes('public'))).toEqual([]);
    const enquiries = await rows(store, 'enquiry');
    expect(enquiries.length).toBeGreaterThan(0);
    for (const e of enquiries) expect(e.created_by).toBeNull();
  });

  it('tags articles with existing tags through the join table, never more than maxItems', async () => {
    const field = model.entitiesByName.article!.fieldsByName.tags!;
    const pairs = (await store.db.selectFrom(field.joinTable!).selectAll().execute()) as Row[];
    const tags = new Set((await rows(store, 'tag')).map((t) => Number(t.id)));
    expect(pairs.length).toBeGreaterThan(50);
    for (const p of pairs) expect(tags.has(Number(Object.values(p).at(-1)))).toBe(true);
  });

  it('never lets an editor publish their own article', async () => {
    const published = await store.db
      .selectFrom('nf_audit')
      .select(['actor_id', 'record_id'])
      .where('entity', '=', 'article')
      .where('action', '=', 'publish')
      .execute();
    const authors = new Map(articles.map((a) => [Number(a.id), Number(a.author)]));
    expect(published.length).toBeGreaterThan(0);
    for (const p of published) expect(Number(p.actor_id)).not.toBe(authors.get(Number(p.record_id)));
  });

  it('keeps the rule when run again, with what the first run featured', async () => {
    await seeded(model, store, 100);
    const all = await rows(store, 'article');
    expect(all).toHaveLength(250);
    expect(mostPer(all, (a) => a.section, featuredPublished)).toBe(1);
  });
});

/** One active loan per item, where the item is a reference and only the workflow gets a loan out of the rule. */
const library: AppSpec = {
  name: 'library',
  screens: { navigation: ['loan', 'item'] },
  entities: {
    item: { label: 'Item', titleField: 'name', fields: { name: { type: 'text', required: true, unique: true, maxLength: 80 } } },
    loan: {
      label: 'Loan',
      titleField: 'reference',
      fields: {
        reference: { type: 'text', required: true, maxLength: 80 },
        item: { type: 'reference', to: 'item', required: true },
      },
      uniqueWhen: { fields: ['item'], where: { field: 'state', op: 'eq', value: 'active' }, message: 'This item is already on loan.' },
    },
  },
  workflows: {
    loan: {
      states: { active: { label: 'Active', initial: true }, returned: { label: 'Returned', final: true } },
      transitions: { return: { label: 'Return', from: 'active', to: 'returned', allow: ['admin'] } },
    },
  },
  roles: { admin: { label: 'Administrator' } },
  permissions: {
    item: { admin: { list: true, read: true, create: true } },
    loan: { admin: { list: true, read: true, create: true, update: true } },
  },
};

forEachDatabase('seed: a uniqueWhen on a reference, kept by the workflow', (database) => {
  const model = buildModel(library);

  it('returns every loan but one per item, also when run again', async () => {
    const store = await openSyncedQuickly(database, model);
    await seeded(model, store, 60);
    await seeded(model, store, 40);
    const loans = await rows(store, 'loan');
    expect(loans).toHaveLength(100);
    expect(
      mostPer(
        loans,
        (l) => l.item,
        (l) => l.state === 'active',
      ),
    ).toBe(1);
    expect(loans.filter((l) => l.state === 'returned').length).toBeGreaterThan(50);
  }, 120_000);
});
