import { beforeAll, expect, it, vi } from 'vitest';
import crm from '../../examples/crm/ninefold.spec';
import publication from '../../examples/publication/ninefold.spec';
import { openTestEngine } from '@testing/api/api';
import type { TestEngine } from '@testing/engine/engine';
import { createActor, ninefoldError, testModel } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import { buildModel } from '@/engine/spec/build';
import type { Actor } from '@/engine/ground/actor';
import type { RecordData } from '@/engine/ops/types';
import { PICKER_RESULTS, searchFieldChoices } from './field-choices';
import { describeFormFields, PLAIN_CHOICES } from './form-fields';
import { describeFilters } from './list-filters';
import { EMPTY_LIST_PARAMS } from './list-query';

vi.mock('server-only', () => ({}));

/*
 * A picker's server search (what its combobox asks as the user types), over a real engine and
 * database: only what ops lets the viewer choose, the field's `roles` and `within` applied, a
 * few at a time.
 */

const labels = (options: readonly { label: string }[]) => options.map((o) => o.label);
const anything = { q: '', within: null };

forEachDatabase('picker search, helpdesk', (database) => {
  let engine: TestEngine;
  let admin: Actor;
  let customer: Actor;
  let mine: RecordData;
  let theirs: RecordData;

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    admin = await createActor(engine.store.db, ['admin'], 'Pia Admin');
    await createActor(engine.store.db, ['agent'], 'Pete Agent');
    customer = await createActor(engine.store.db, ['customer'], 'Pam Customer');
    const other = await createActor(engine.store.db, ['customer'], 'Pat Customer');
    mine = await engine.ops.create(customer, 'ticket', { subject: 'Picker printer jam' });
    theirs = await engine.ops.create(other, 'ticket', { subject: 'Picker printer smoke' });
    for (let i = 0; i < PICKER_RESULTS + 5; i++) await engine.ops.create(admin, 'organization', { name: `Picker Org ${100 + i}` });
  });

  it('offers a user field only the users holding one of its roles, matching what was typed', async () => {
    const assignees = await searchFieldChoices(engine, admin, 'ticket', 'assignee', { q: 'P', within: null });
    expect(labels(assignees).some((l) => l.startsWith('Pete Agent'))).toBe(true);
    expect(labels(assignees).some((l) => l.startsWith('Pia Admin'))).toBe(true);
    // The field's roles are agent and admin: no customer, whatever was typed.
    expect(labels(assignees).some((l) => l.includes('Customer'))).toBe(false);
    expect(await searchFieldChoices(engine, admin, 'ticket', 'assignee', { q: 'Pam', within: null })).toEqual([]);
  });

  it('never gives more than a picker shows, and narrows by the text', async () => {
    const all = await searchFieldChoices(engine, admin, 'ticket', 'organization', { q: 'Picker Org', within: null });
    expect(all).toHaveLength(PICKER_RESULTS);
    const one = await searchFieldChoices(engine, admin, 'ticket', 'organization', { q: 'org 117', within: null });
    expect(labels(one)).toEqual(['Picker Org 117']);
  });

  it("offers only the records the viewer may read: a customer never finds another customer's ticket", async () => {
    const tickets = await searchFieldChoices(engine, customer, 'comment', 'ticket', { q: 'picker printer', within: null });
    expect(tickets.map((o) => o.value)).toEqual([String(mine.id)]);
    const asAdmin = await searchFieldChoices(engine, admin, 'comment', 'ticket', { q: 'picker printer', within: null });
    expect(asAdmin.map((o) => o.value).sort()).toEqual([String(mine.id), String(theirs.id)].sort());
  });

  it('has nothing for a field the viewer may not choose, nor for what is no reference field', async () => {
    expect(await searchFieldChoices(engine, customer, 'ticket', 'assignee', anything)).toEqual([]);
    expect(await searchFieldChoices(engine, admin, 'ticket', 'subject', anything)).toEqual([]);
    expect(await searchFieldChoices(engine, admin, 'nothing', 'assignee', anything)).toEqual([]);
  });
});

forEachDatabase('picker search, a reference within another', (database) => {
  const model = buildModel(crm);
  let engine: TestEngine;
  let admin: Actor;
  let acme: RecordData;
  let globex: RecordData;
  let ann: RecordData;
  let bob: RecordData;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    admin = await createActor(engine.store.db, ['admin'], 'Crm Admin');
    acme = await engine.ops.create(admin, 'company', { name: 'Acme Within' });
    globex = await engine.ops.create(admin, 'company', { name: 'Globex Within' });
    ann = await engine.ops.create(admin, 'contact', { name: 'Ann at Acme', company: acme.id });
    bob = await engine.ops.create(admin, 'contact', { name: 'Bob at Globex', company: globex.id });
  });

  it("offers a deal's contacts of the deal's company only, and any contact while no company is chosen", async () => {
    const atAcme = await searchFieldChoices(engine, admin, 'deal', 'contact', { q: 'at', within: acme.id });
    expect(labels(atAcme)).toEqual(['Ann at Acme']);
    const atGlobex = await searchFieldChoices(engine, admin, 'deal', 'contact', { q: 'at', within: globex.id });
    expect(labels(atGlobex)).toEqual(['Bob at Globex']);
    expect(labels(await searchFieldChoices(engine, admin, 'deal', 'contact', { q: 'at', within: null }))).toEqual([
      'Ann at Acme',
      'Bob at Globex',
    ]);
  });

  it('refuses a write naming a contact of another company, on create and when the company moves', async () => {
    const refused = await ninefoldError(engine.ops.create(admin, 'deal', { title: 'Crossed wires', company: acme.id, contact: bob.id }));
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.fieldErrors).toEqual([{ field: 'contact', code: 'not_within', message: "Contact must belong to the deal's company." }]);
    const deal = await engine.ops.create(admin, 'deal', { title: 'Straight wires', company: acme.id, contact: ann.id });
    const moved = await ninefoldError(engine.ops.update(admin, 'deal', deal.id, { company: globex.id }, deal.version));
    expect(moved.fieldErrors?.[0]).toMatchObject({ field: 'contact', code: 'not_within' });
    // Moving both together is fine; so is a deal with no contact at all.
    const both = await engine.ops.update(admin, 'deal', deal.id, { company: globex.id, contact: bob.id }, deal.version);
    expect(both).toMatchObject({ company: globex.id, contact: bob.id });
    await expect(engine.ops.create(admin, 'deal', { title: 'Nobody yet', company: acme.id })).resolves.toMatchObject({ contact: null });
  });

  it('refuses the same in an import, row by row', async () => {
    const result = await engine.ops.createMany(
      admin,
      'deal',
      [
        { title: 'Imported right', company: acme.id, contact: ann.id },
        { title: 'Imported wrong', company: acme.id, contact: bob.id },
      ],
      { goodRows: true },
    );
    expect(result).toMatchObject({ created: 1, refusedRows: 1 });
  });
});

forEachDatabase('picker search, a references field', (database) => {
  const model = buildModel(publication);
  let engine: TestEngine;
  let admin: Actor;
  let tags: RecordData[];

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    admin = await createActor(engine.store.db, ['admin'], 'Pub Admin');
    tags = [];
    for (let i = 0; i < PLAIN_CHOICES + 5; i++) tags.push(await engine.ops.create(admin, 'tag', { name: `Topic ${100 + i}` }));
  });

  const tagsField = async (value: string) => {
    const entity = model.entitiesByName.article!;
    const [field] = await describeFormFields({
      ops: engine.ops,
      actor: admin,
      model,
      entity,
      fields: [entity.fieldsByName.tags!],
      values: { tags: value },
      references: { tags: { [tags[7]!.id]: 'Topic 107' } },
      zone: 'UTC',
    });
    return field!;
  };

  it('finds the records of a references field as typed, a few at a time', async () => {
    expect(await searchFieldChoices(engine, admin, 'article', 'tags', anything)).toHaveLength(PICKER_RESULTS);
    expect(labels(await searchFieldChoices(engine, admin, 'article', 'tags', { q: 'topic 131', within: null }))).toEqual(['Topic 131']);
  });

  it('renders no list of every record: past a few, the form names only the chosen ones and searches the server', async () => {
    const field = await tagsField(String(tags[7]!.id));
    expect(field).toMatchObject({ kind: 'ids', search: { entity: 'article', field: 'tags' } });
    expect(field.options).toEqual([{ value: String(tags[7]!.id), label: 'Topic 107' }]);
    const params = { ...EMPTY_LIST_PARAMS, filters: { tags: String(tags[7]!.id) } };
    const filters = await describeFilters(engine.ops, admin, model.entitiesByName.article!, new Set(['tags']), params);
    const filter = filters.find((f) => f.param === 'tags');
    expect(filter).toMatchObject({ kind: 'text', search: { entity: 'article', field: 'tags' } });
    expect(filter?.options.map((o) => o.value)).toEqual([String(tags[7]!.id)]);
  });

  it('offers a multiple select of them all while they are a few', async () => {
    for (const tag of tags.slice(PLAIN_CHOICES - 5)) await engine.ops.delete(admin, 'tag', tag.id, tag.version);
    const field = await tagsField('');
    expect(field).toMatchObject({ kind: 'multi', search: { entity: 'article', field: 'tags' } });
    expect(field.options).toHaveLength(PLAIN_CHOICES - 5);
  });
});
