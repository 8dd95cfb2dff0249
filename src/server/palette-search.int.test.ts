import { beforeAll, expect, it } from 'vitest';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, testModel } from '@testing/engine/ops';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { forEachDatabase } from '@testing/engine/store';
import type { PaletteGroup } from '@/ui/palette/palette-groups';
import { searchPalette } from './palette-search';

/*
 * The command palette's record search over a real engine and database: by words and by id,
 * grouped by entity, and only ever what ops lets the actor see: a customer never finds another
 * customer's ticket, an internal note, or an entity they may not list.
 */

const hrefs = (groups: readonly PaletteGroup[]) => groups.flatMap((g) => g.records.map((r) => r.href));
const entities = (groups: readonly PaletteGroup[]) => groups.map((g) => g.entity);

forEachDatabase('palette search', (database) => {
  let engine: TestEngine;
  let admin: Actor;
  let agent: Actor;
  let customer: Actor;
  let other: Actor;
  let mine: RecordData;
  let theirs: RecordData;
  let organization: RecordData;
  let publicReply: RecordData;
  let internalNote: RecordData;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    admin = await createActor(engine.store.db, ['admin'], 'Admin Palette');
    agent = await createActor(engine.store.db, ['agent'], 'Agent Palette');
    customer = await createActor(engine.store.db, ['customer'], 'Customer Palette');
    other = await createActor(engine.store.db, ['customer'], 'Other Palette');
    organization = await engine.ops.create(admin, 'organization', { name: 'Zebra Crossings Ltd' });
    mine = await engine.ops.create(customer, 'ticket', { subject: 'The zebra printer is jammed' });
    theirs = await engine.ops.create(other, 'ticket', { subject: 'Zebra labels come out blank' });
    publicReply = await engine.ops.create(agent, 'comment', { ticket: mine.id, body: 'Which zebra model is it?' });
    internalNote = await engine.ops.create(agent, 'comment', {
      ticket: mine.id,
      body: 'Zebra again: escalate to hardware',
      internal: true,
    });
    await engine.ops.create(admin, 'contact', { name: 'Zebra Contact' });
  });

  it('finds records by words, grouped by entity, navigation first, titles as the pages show them', async () => {
    const found = await searchPalette(engine, agent, '  zebra ');
    expect(entities(found)).toEqual(['ticket', 'organization', 'comment']);
    expect(found[0]).toMatchObject({ label: 'Tickets' });
    expect(found[0]!.records.map((r) => r.title).sort()).toEqual(['The zebra printer is jammed', 'Zebra labels come out blank']);
    // Each ticket says its state (by its label); a record without a workflow says none.
    expect(found[0]!.records.map((r) => r.state)).toEqual(['New', 'New']);
    expect(found.find((g) => g.entity === 'organization')?.records.every((r) => r.state === undefined)).toBe(true);
    expect(hrefs(found)).toEqual(
      expect.arrayContaining([
        `/tickets/${mine.id}`,
        `/tickets/${theirs.id}`,
        `/organizations/${organization.id}`,
        `/comments/${internalNote.id}`,
      ]),
    );
    // Each group found by words ends with its list searched for the same words.
    expect(found.map((g) => g.allHref)).toEqual(['/tickets?q=zebra', '/organizations?q=zebra', '/comments?q=zebra']);
    expect(await searchPalette(engine, agent, '')).toEqual([]);
    expect(await searchPalette(engine, agent, 'nothing-like-this-anywhere')).toEqual([]);
  });

  it("never gives a customer another customer's ticket, an internal note or an entity they may not list", async () => {
    const found = await searchPalette(engine, customer, 'zebra');
    expect(entities(found)).toEqual(['ticket', 'comment']);
    expect(hrefs(found).sort()).toEqual([`/comments/${publicReply.id}`, `/tickets/${mine.id}`].sort());
    expect(hrefs(await searchPalette(engine, other, 'zebra'))).toEqual([`/tickets/${theirs.id}`]);
  });

  it('orders each group best first: the title typed, titles starting with it, titles holding it, other fields', async () => {
    const other = await engine.ops.create(agent, 'ticket', {
      subject: 'Printer smells',
      requester: customer.userId,
      description: 'A quokka sat in it',
    });
    const holding = await engine.ops.create(agent, 'ticket', { subject: 'Where is the quokka mug', requester: customer.userId });
    const starting = await engine.ops.create(agent, 'ticket', { subject: 'Quokka stickers', requester: customer.userId });
    const exact = await engine.ops.create(agent, 'ticket', { subject: 'quokka', requester: customer.userId });
    // The oldest last: recency alone would give the opposite order.
    await engine.ops.update(agent, 'ticket', other.id, { description: 'A quokka sat in it, twice' }, other.version);
    const [tickets, ...rest] = await searchPalette(engine, agent, 'Quokka');
    expect(rest).toEqual([]);
    expect(tickets!.records.map((r) => r.id)).toEqual([exact.id, starting.id, holding.id, other.id]);
    expect(tickets!.allHref).toBe('/tickets?q=Quokka');
    // The address says the words as typed (trimmed), encoded for a query string.
    expect((await searchPalette(engine, agent, ' the quokka ')).map((g) => g.allHref)).toEqual(['/tickets?q=the+quokka']);
  });

  it('offers no list for a group found by number only', async () => {
    const organizations = (await searchPalette(engine, admin, `#${organization.id}`)).find((g) => g.entity === 'organization');
    expect(organizations).toMatchObject({ records: [{ id: organization.id }] });
    expect(organizations?.allHref).toBeUndefined();
  });

  it('finds a record by "123" or "#123" in every entity the actor may read, and nothing out of reach', async () => {
    const byHash = await searchPalette(engine, agent, `#${theirs.id}`);
    expect(hrefs(byHash)).toContain(`/tickets/${theirs.id}`);
    expect(byHash[0]!.records[0]).toEqual({
      id: theirs.id,
      title: 'Zebra labels come out blank',
      href: `/tickets/${theirs.id}`,
      state: 'New',
    });
    expect(hrefs(await searchPalette(engine, customer, String(mine.id)))).toContain(`/tickets/${mine.id}`);
    expect(hrefs(await searchPalette(engine, customer, `#${theirs.id}`))).not.toContain(`/tickets/${theirs.id}`);
    expect(hrefs(await searchPalette(engine, customer, `#${internalNote.id}`))).not.toContain(`/comments/${internalNote.id}`);
    expect(hrefs(await searchPalette(engine, customer, `#${organization.id}`))).not.toContain(`/organizations/${organization.id}`);
    for (const id of [mine.id, theirs.id, organization.id, internalNote.id]) {
      expect(entities(await searchPalette(engine, customer, `#${id}`)).filter((e) => e === 'organization' || e === 'contact')).toEqual([]);
    }
  });
});
