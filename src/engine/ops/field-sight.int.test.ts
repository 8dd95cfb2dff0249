import { beforeAll, describe, expect, it } from 'vitest';
import publication from '../../../examples/publication/ninefold.spec';
import { createIdentity } from '../identity/identity';
import { buildModel } from '../spec/build';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../store/types';
import { createOps } from './create-ops';
import type { Ops } from './ops';
import type { RecordData } from './types';
import { openSyncedQuickly } from '@testing/engine/ops';
import type { Actor } from '../ground/actor';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';

/*
 * A grant's field rules hold on the records that grant lets the actor see (access/field-sight.ts).
 * In the newsroom, a writer sees their own team's articles through the writer grant (every field)
 * and every published article through the public grant, which hides the team, `featured` and
 * who wrote or changed it. Another team's published article is therefore shown without them,
 * through every operation, and no filter, sort, count or total tells those hidden values apart.
 */
const model = buildModel(publication);
const HIDDEN_BY_PUBLIC = ['team', 'featured', 'createdBy', 'updatedBy'];

forEachDatabase('fields follow the grant that let the record in', (database) => {
  let store: Store;
  let ops: Ops;
  let counter = 0;
  let writer: Actor;
  let admin: Actor;
  let sport: RecordData;
  let culture: RecordData;
  let ours: RecordData;
  let theirs: RecordData;
  let ballet: RecordData;

  async function member(roles: readonly string[], team: number | null): Promise<Actor> {
    counter += 1;
    const account = await createIdentity(store.db, Object.keys(model.roles)).createUser(SYSTEM_ACTOR, {
      email: `sight.${process.pid}.${counter}@example.com`,
      password: 'correct horse battery',
      name: `Member ${counter}`,
      roles,
    });
    return { userId: account.id, email: account.email, name: account.name, roles: account.roles, fields: { team } };
  }

  /** Written by a writer of the team and published by an editor of it. */
  async function published(team: RecordData, title: string): Promise<RecordData> {
    const author = await member(['writer'], team.id);
    const editor = await member(['editor'], team.id);
    const draft = await ops.create(author, 'article', { title, section: 'news', team: team.id, body: `${title} in full` });
    const submitted = await ops.transition(author, 'article', draft.id, 'submit', { version: draft.version });
    return ops.transition(editor, 'article', draft.id, 'publish', { version: submitted.version });
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    admin = await member(['admin'], null);
    sport = await ops.create(admin, 'team', { name: 'Sport desk' });
    culture = await ops.create(admin, 'team', { name: 'Culture desk' });
    writer = await member(['writer'], sport.id);
    ours = await published(sport, 'Derby day');
    theirs = await published(culture, 'Opera night');
    ballet = await published(culture, 'Ballet season');
  });

  const missing = (record: RecordData) => HIDDEN_BY_PUBLIC.filter((name) => !Object.hasOwn(record, name));

  it('lists and reads another team’s published article without what the public grant hides, and the own team’s with it', async () => {
    const rows = (await ops.list(writer, 'article', { limit: 50 })).rows;
    expect(missing(rows.find((r) => r.id === theirs.id)!)).toEqual(HIDDEN_BY_PUBLIC);
    expect(missing(rows.find((r) => r.id === ours.id)!)).toEqual([]);
    expect(rows.find((r) => r.id === ours.id)!.team).toBe(sport.id);

    expect(missing((await ops.get(writer, 'article', theirs.id)).record)).toEqual(HIDDEN_BY_PUBLIC);
    const own = await ops.get(writer, 'article', ours.id);
    expect(own.record.team).toBe(sport.id);
    // The team's title is not even looked up for the other article.
    expect((await ops.get(writer, 'article', theirs.id)).references.team ?? {}).toEqual({});

    // Every field stays on the list as a column: the writer reads the team of some articles.
    expect(ops.access(writer, 'article').readable).toContain('team');
    // The administrator's one grant sees every record: every field on every row, as before.
    expect(missing((await ops.get(admin, 'article', theirs.id)).record)).toEqual([]);
  });

  it('matches a filter or a search on a hidden field nowhere it is hidden, and counts the same', async () => {
    const ids = async (query: Parameters<Ops['list']>[2]) =>
      (await ops.list(writer, 'article', { limit: 50, ...query })).rows.map((r) => r.id);
    expect(await ids({ filters: { team: String(culture.id) } })).toEqual([]);
    expect(await ids({ filters: { team: String(sport.id) } })).toEqual([ours.id]);
    expect((await ops.count(writer, 'article', { filters: { team: String(culture.id) } })).count).toBe(0);
    expect((await ops.count(admin, 'article', { filters: { team: String(culture.id) } })).count).toBe(2);
    // Title and body are read on every article: the search finds both teams' articles.
    expect((await ids({ q: 'night' })).sort()).toEqual([theirs.id]);
  });

  it('sorts by a hidden field as by an empty one, and its pages and cursors tell nothing more', async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    const cursors: string[] = [];
    do {
      const page = await ops.list(writer, 'article', { sort: 'team', limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.rows.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
      if (cursor) cursors.push(cursor);
    } while (cursor);
    // The own team's article first (a value), the others after it by id (empty values sort last).
    expect(seen).toEqual([ours.id, theirs.id, ballet.id]);
    // A cursor is made of what the page showed: never the other team's id.
    expect(cursors.map((c) => (JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as { v: unknown[] }).v)).toEqual([
      [sport.id],
      [null],
    ]);
  });

  it('counts a hidden field’s records as empty in the numbers, per value and per day', async () => {
    const totals = await ops.groupTotals(writer, 'article', { by: 'team' });
    expect(totals.groups).toEqual(
      expect.arrayContaining([
        { value: String(sport.id), amount: 1 },
        { value: null, amount: 2 },
      ]),
    );
    expect(totals.groups.some((g) => g.value === String(culture.id))).toBe(false);
    expect((await ops.groupTotals(admin, 'article', { by: 'team' })).groups.some((g) => g.value === String(culture.id))).toBe(true);
  });

  it('tells the history of another team’s article without who made it or its hidden fields', async () => {
    const history = await ops.history(writer, 'article', theirs.id);
    expect(history.entries.length).toBeGreaterThan(0);
    for (const entry of history.entries) {
      expect(entry.actor).toBeNull();
      expect(Object.keys(entry.changes).filter((name) => HIDDEN_BY_PUBLIC.includes(name))).toEqual([]);
    }
    const own = await ops.history(writer, 'article', ours.id);
    expect(own.entries.some((entry) => entry.actor !== null)).toBe(true);
    expect(own.entries.some((entry) => Object.hasOwn(entry.changes, 'team'))).toBe(true);
  });
});

describe('the rule in words', () => {
  it('is told on /spec and by describe', async () => {
    const { describeMarkdown } = await import('../spec/describe');
    expect(describeMarkdown(model)).toContain("A role's hidden fields hold on the records that role's List and Read let the user see");
  });
});

describe('a spec whose roles hide the same fields', () => {
  it('needs no look at the rows: one set of fields for every record', async () => {
    const { fieldSight } = await import('../access/field-sight');
    const sight = fieldSight(model, model.entitiesByName.article!, {
      userId: 1,
      email: 'a@example.com',
      name: 'A',
      roles: ['admin'],
      fields: {},
    });
    expect(sight.uniform).toBe(true);
    expect(sight.columns).toEqual([]);
    const writerSight = fieldSight(model, model.entitiesByName.article!, {
      userId: 2,
      email: 'w@example.com',
      name: 'W',
      roles: ['writer'],
      fields: { team: 1 },
    });
    expect(writerSight.uniform).toBe(false);
    expect(writerSight.readableWhere('title')).toBeNull();
    expect(writerSight.readableWhere('team')).not.toBeNull();
  });
});
