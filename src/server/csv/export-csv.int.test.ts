import { parse } from 'csv-parse/sync';
import { beforeAll, expect, it } from 'vitest';
import { createOps } from '@/engine/ops/create-ops';
import type { Ops } from '@/engine/ops/ops';
import { createActor, openSyncedQuickly, testModel } from '@testing/engine/ops';
import type { ListQuery } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '@/engine/store/types';
import { listColumns } from '@/ui/columns';
import { EXPORT_PAGE_SIZE, listCsv } from './export-csv';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  // Response.text() would drop the byte order mark this test wants to see.
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

forEachDatabase('CSV export of a list: through ops, as shown, page by page', (database) => {
  let store: Store;
  let ops: Ops;
  let admin: Actor;
  let agent: Actor;
  let customer: Actor;
  let other: Actor;

  const exportOf = async (actor: Actor, entity: string, query: ListQuery = {}, names?: readonly string[]) => {
    const model = testModel.entitiesByName[entity]!;
    const { columns } = listColumns(testModel, model, new Set(ops.access(actor, entity).readable), names);
    const text = await readAll(await listCsv(ops, actor, model, query, columns));
    expect(text.startsWith('\uFEFF')).toBe(true);
    return parse(text.slice(1)) as string[][];
  };

  beforeAll(async () => {
    store = await openSyncedQuickly(database, testModel);
    ops = createOps({ model: testModel, db: store.db });
    admin = await createActor(store.db, ['admin'], 'Ada Admin');
    agent = await createActor(store.db, ['agent'], 'Grace Agent');
    customer = await createActor(store.db, ['customer'], 'Carl Customer');
    other = await createActor(store.db, ['customer'], 'Olga Other');
    const acme = await ops.create(admin, 'organization', { name: 'Acme Corp', tier: 'premium' });
    await ops.create(customer, 'ticket', {
      subject: '=HYPERLINK("http://evil.example","Click")',
      description: 'Line one\nline two, "quoted"',
    });
    const second = await ops.create(customer, 'ticket', { subject: 'Printer jammed' });
    await ops.update(agent, 'ticket', second.id, { organization: acme.id, assignee: agent.userId, priority: 'high' }, second.version);
    await ops.create(other, 'ticket', { subject: 'Someone else’s printer' });
  });

  it('has a header of labels and the cells as the list shows them: labels, titles, names, ISO 8601 times in UTC, Yes/No', async () => {
    const rows = await exportOf(agent, 'ticket', { sort: 'id' }, [
      'id',
      'subject',
      'state',
      'priority',
      'requester',
      'assignee',
      'organization',
      'createdAt',
    ]);
    expect(rows[0]).toEqual(['ID', 'Subject', 'State', 'Priority', 'Requester', 'Assignee', 'Organization', 'Created']);
    expect(rows).toHaveLength(4);
    expect(rows[2]!.slice(1, 7)).toEqual(['Printer jammed', 'New', 'High', 'Carl Customer', 'Grace Agent', 'Acme Corp']);
    expect(rows[2]![7]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
    const comments = await exportOf(agent, 'organization', {}, ['name', 'tier']);
    expect(comments).toEqual([
      ['Name', 'Tier'],
      ['Acme Corp', 'premium'],
    ]);
  });

  it('neutralises formulas and quotes separators, quotes and line breaks (RFC 4180)', async () => {
    const rows = await exportOf(agent, 'ticket', { sort: 'id' }, ['subject', 'description']);
    expect(rows[1]).toEqual([`'=HYPERLINK("http://evil.example","Click")`, 'Line one\nline two, "quoted"']);
  });

  it('gives a customer their own records only, never a field hidden from them, even when asked for it', async () => {
    const rows = await exportOf(customer, 'ticket', { sort: 'id' }, ['subject', 'assignee', 'organization', 'priority']);
    expect(rows).toEqual([
      ['Subject', 'Priority'],
      [`'=HYPERLINK("http://evil.example","Click")`, 'Normal'],
      ['Printer jammed', 'High'],
    ]);
  });

  it('honours the filters, the search and the sort of the list', async () => {
    expect((await exportOf(agent, 'ticket', { filters: { priority: 'high' } }, ['subject'])).slice(1)).toEqual([['Printer jammed']]);
    expect((await exportOf(agent, 'ticket', { q: 'printer', sort: 'subject' }, ['subject'])).slice(1)).toEqual([
      ['Printer jammed'],
      ['Someone else’s printer'],
    ]);
  });

  it('reads the next page through ops only when the reader asks for more', async () => {
    await ops.createMany(
      admin,
      'organization',
      Array.from({ length: EXPORT_PAGE_SIZE * 2 + 10 }, (_, i) => ({ name: `Paged org ${String(i).padStart(4, '0')}` })),
    );
    const pages: (string | undefined)[] = [];
    const spy: Ops = { ...ops, list: (actor, entity, query) => (pages.push(query?.cursor), ops.list(actor, entity, query)) };
    const entity = testModel.entitiesByName.organization!;
    const { columns } = listColumns(testModel, entity, new Set(ops.access(agent, 'organization').readable));
    const stream = await listCsv(spy, agent, entity, { sort: 'name', cursor: 'ignored: an export starts at the first page' }, columns);
    expect(pages).toEqual([undefined]);
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let text = new TextDecoder('utf-8', { ignoreBOM: true }).decode((await reader.read()).value);
    expect(pages).toHaveLength(1);
    text += decoder.decode((await reader.read()).value);
    expect(pages).toHaveLength(2);
    text += decoder.decode((await reader.read()).value);
    expect(pages).toHaveLength(3);
    expect((await reader.read()).done).toBe(true);
    expect(pages).toHaveLength(3);
    const rows = parse(text.slice(1)) as string[][];
    expect(rows).toHaveLength(1 + 1 + EXPORT_PAGE_SIZE * 2 + 10);
    expect(rows[2]).toEqual(['Paged org 0000', '', 'standard']);
  });
});
