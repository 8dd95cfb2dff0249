import { beforeAll, expect, it } from 'vitest';
import publication from '../../../examples/publication/ninefold.spec';
import { visitorActor } from '../access/visitor';
import type { Actor } from '../ground/actor';
import { SYSTEM_ACTOR } from '../identity/system-actor';
import { createIdentity } from '../identity/identity';
import { createOps } from '../ops/create-ops';
import type { Ops } from '../ops/ops';
import type { RecordData } from '../ops/types';
import { buildModel } from '../spec/build';
import type { Store } from '../store/types';
import { forEachDatabase } from '@testing/engine/store';
import { ninefoldError, openSyncedQuickly } from '@testing/engine/ops';
import { articleOf } from './article';
import { readerFeed } from './feed';

const model = buildModel(publication);
const article = model.entitiesByName.article!;
const ORIGIN = 'https://news.example.com';

interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Entities decoded; a bare "&" (or an unknown entity) is not well-formed XML, so it fails the test. */
function unescape(text: string): string {
  return text.replace(/&([a-z]+);|&/g, (whole, name: string | undefined) => {
    const value = name === undefined ? undefined : ENTITIES[name];
    if (value === undefined) throw new Error(`Not well-formed XML: ${whole} in ${JSON.stringify(text)}`);
    return value;
  });
}

/** A small strict reader of the XML the feed writes: elements, attributes and text; unbalanced tags throw. */
function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  for (const token of body.split(/(<[^>]*>)/)) {
    const top = stack.at(-1)!;
    if (!token.startsWith('<')) {
      if (token.includes('>')) throw new Error(`Not well-formed XML: ">" in text ${JSON.stringify(token)}`);
      top.text += unescape(token);
      continue;
    }
    const close = /^<\/([\w:]+)>$/.exec(token);
    if (close) {
      if (top.name !== close[1]) throw new Error(`Not well-formed XML: </${close[1]}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const open = /^<([\w:]+)((?:\s+[\w:]+="[^"<]*")*)\s*(\/?)>$/.exec(token);
    if (!open) throw new Error(`Not well-formed XML: ${token}`);
    const attributes: Record<string, string> = {};
    for (const [, key, value] of open[2]!.matchAll(/([\w:]+)="([^"]*)"/g)) attributes[key!] = unescape(value!);
    const element: XmlElement = { name: open[1]!, attributes, children: [], text: '' };
    top.children.push(element);
    if (open[3] !== '/') stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`Not well-formed XML: <${stack.at(-1)!.name}> is never closed`);
  const [feed] = root.children;
  if (!feed || root.children.length !== 1) throw new Error('Not well-formed XML: one root element expected');
  return feed;
}

const child = (element: XmlElement, name: string) => element.children.find((c) => c.name === name);
const children = (element: XmlElement, name: string) => element.children.filter((c) => c.name === name);

forEachDatabase('reader pages: articles by slug and the Atom feed, as readers may read them', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let writer: Actor;
  let editor: Actor;
  let published: RecordData;
  let draft: RecordData;
  let counter = 0;

  async function member(roles: readonly string[], team: number | null): Promise<Actor> {
    counter += 1;
    const account = await createIdentity(store.db, Object.keys(model.roles)).createUser(SYSTEM_ACTOR, {
      email: `reader.${process.pid}.${counter}@example.com`,
      password: 'correct horse battery',
      name: `Member ${counter}`,
      roles,
    });
    return { userId: account.id, email: account.email, name: account.name, roles: account.roles, fields: { team } };
  }

  async function publish(title: string, fields: Record<string, unknown>): Promise<RecordData> {
    const created = await ops.create(writer, 'article', { title, section: 'news', team: writer.fields!.team as number, ...fields });
    const submitted = await ops.transition(writer, 'article', created.id, 'submit', { version: created.version });
    return ops.transition(editor, 'article', created.id, 'publish', { version: submitted.version });
  }

  beforeAll(async () => {
    store = await openSyncedQuickly(database, model);
    ops = createOps({ model, db: store.db });
    admin = await member(['admin'], null);
    const desk = await ops.create(admin, 'team', { name: 'News desk' });
    writer = await member(['writer'], desk.id);
    editor = await member(['editor'], desk.id);
    const tag = await ops.create(admin, 'tag', { name: 'Food & <Drink>' });
    published = await publish('Fish & <Chips> "tonight"', {
      summary: 'Where to eat <b>fish</b> & chips',
      body: '# Heading\n\nThe **best** fish.',
      tags: [tag.id],
    });
    draft = await ops.create(writer, 'article', { title: 'Secret plans', section: 'news', team: desk.id, summary: 'Not yet' });
  });

  it('finds a published article by its slug for the public, without its hidden fields', async () => {
    expect(published.slug).toBe('fish-chips-tonight');
    const view = await ops.getBy(visitorActor(), 'article', 'slug', 'fish-chips-tonight');
    expect(view.record.id).toBe(published.id);
    expect(view.record).not.toHaveProperty('team');
    expect(view.record).not.toHaveProperty('featured');
    const read = articleOf(article, article.presentation!, view.record, view.references);
    expect(read).toMatchObject({
      key: 'fish-chips-tonight',
      headline: 'Fish & <Chips> "tonight"',
      summary: 'Where to eat <b>fish</b> & chips',
      byline: 'Member 2',
      tags: [{ title: 'Food & <Drink>' }],
    });
  });

  it('keeps a draft out of the public’s reach by slug as by id, while its team finds it by slug', async () => {
    expect(draft.slug).toBe('secret-plans');
    expect((await ninefoldError(ops.getBy(visitorActor(), 'article', 'slug', 'secret-plans'))).code).toBe('NOT_FOUND');
    expect((await ninefoldError(ops.get(visitorActor(), 'article', draft.id))).code).toBe('NOT_FOUND');
    expect((await ninefoldError(ops.getBy(visitorActor(), 'article', 'slug', 'no-such-article'))).code).toBe('NOT_FOUND');
    expect((await ops.getBy(writer, 'article', 'slug', 'secret-plans')).record.id).toBe(draft.id);
  });

  it('finds records by unique text fields only', async () => {
    await expect(ops.getBy(admin, 'article', 'title', 'Secret plans')).rejects.toThrow('article.title is not a unique text field');
  });

  it('writes an Atom feed of what the public reads: escaped, absolute, without drafts or hidden fields', async () => {
    const xml = await readerFeed(ops, model, article, `${ORIGIN}/`);
    expect(xml).not.toBeNull();
    const feed = parseXml(xml!);
    expect(feed.name).toBe('feed');
    expect(feed.attributes.xmlns).toBe('http://www.w3.org/2005/Atom');
    expect(child(feed, 'id')!.text).toBe(`${ORIGIN}/articles/feed.xml`);
    expect(children(feed, 'link').map((l) => [l.attributes.rel, l.attributes.href])).toEqual([
      ['self', `${ORIGIN}/articles/feed.xml`],
      ['alternate', `${ORIGIN}/articles`],
    ]);
    const entries = children(feed, 'entry');
    expect(entries.map((e) => child(e, 'title')!.text)).toEqual(['Fish & <Chips> "tonight"']);
    const [entry] = entries;
    expect(child(entry!, 'id')!.text).toBe(`${ORIGIN}/articles/fish-chips-tonight`);
    expect(child(entry!, 'link')!.attributes.href).toBe(`${ORIGIN}/articles/fish-chips-tonight`);
    expect(child(entry!, 'summary')!.text).toBe('Where to eat <b>fish</b> & chips');
    expect(child(entry!, 'category')!.attributes.term).toBe('Food & <Drink>');
    expect(child(child(entry!, 'author')!, 'name')!.text).toBe('Member 2');
    expect(new Date(child(entry!, 'published')!.text).getTime()).toBe((published.publishedAt as Date).getTime());
    expect(new Date(child(feed, 'updated')!.text).getTime()).toBe(published.updatedAt.getTime());
    // Nothing of the draft, nor of the fields the public may not read.
    expect(xml).not.toContain('Secret plans');
    expect(xml).not.toContain('News desk');
  });

  it('has no feed for an entity without one', async () => {
    expect(await readerFeed(ops, model, model.entitiesByName.tag!, ORIGIN)).toBeNull();
  });
});
