import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../../../examples/helpdesk/ninefold.spec';
import { seedEmptyPglite } from '@testing/engine/ops';
import { buildModel } from '../../spec/build';
import type { AppModel, EntityModel, FieldModel } from '../../spec/model';
import { forEachDatabase } from '@testing/engine/store';
import type { Store } from '../types';
import { introspectSchema } from './introspect';
import { SchemaChangeRefused, syncSchema } from './sync';

const model = buildModel(helpdesk);

function withEntity(base: AppModel, name: string, change: (entity: EntityModel) => EntityModel): AppModel {
  const entities = base.entities.map((e) => (e.name === name ? change(e) : e));
  return {
    ...base,
    entities,
    entitiesByName: Object.fromEntries(entities.map((e) => [e.name, e])),
    entitiesByPlural: Object.fromEntries(entities.map((e) => [e.plural, e])),
  };
}

function withFields(entity: EntityModel, fields: FieldModel[]): EntityModel {
  return {
    ...entity,
    fields,
    fieldsByName: Object.fromEntries(fields.map((f) => [f.name, f])),
    searchFields: entity.searchFields.filter((f) => fields.some((x) => x.name === f)),
  };
}

const withoutField = (base: AppModel, entity: string, field: string) =>
  withEntity(base, entity, (e) =>
    withFields(
      e,
      e.fields.filter((f) => f.name !== field),
    ),
  );

const withField = (base: AppModel, entity: string, field: FieldModel) =>
  withEntity(base, entity, (e) => withFields(e, [...e.fields.filter((f) => f.name !== field.name), field]));

const withoutEntity = (base: AppModel, name: string): AppModel => {
  const entities = base.entities.filter((e) => e.name !== name);
  return {
    ...base,
    entities,
    entitiesByName: Object.fromEntries(entities.map((e) => [e.name, e])),
    entitiesByPlural: Object.fromEntries(entities.map((e) => [e.plural, e])),
    navigation: base.navigation.filter((e) => e.name !== name),
  };
};

async function columnsOf(store: Store, table: string): Promise<string[]> {
  const schema = await introspectSchema(store.db);
  return schema.tables.find((t) => t.name === table)?.columns.map((c) => c.name) ?? [];
}

async function seed(store: Store): Promise<{ userId: number; organizationId: number; ticketId: number }> {
  const user = await store.db
    .insertInto('nf_user')
    .values({ email: 'ada@example.com', name: 'Ada', password_hash: 'x', roles: ['agent'] })
    .returning('id')
    .executeTakeFirstOrThrow();
  const organization = await store.db
    .insertInto('organization')
    .values({ name: 'Acme', domain: 'acme.example', tier: 'premium', created_by: user.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ticket = await store.db
    .insertInto('ticket')
    .values({
      subject: 'The printer is on fire',
      description: 'Smoke everywhere',
      priority: 'urgent',
      organization: organization.id,
      requester: user.id,
      state: 'new',
      due_at: new Date('2030-01-02T03:04:05.000Z'),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await store.db.insertInto('comment').values({ ticket: ticket.id, body: 'On my way', internal: true }).execute();
  return { userId: user.id as number, organizationId: organization.id as number, ticketId: ticket.id as number };
}

forEachDatabase('schema sync', (database) => {
  let ids: { userId: number; organizationId: number; ticketId: number };

  beforeAll(async () => {
    // An initialised empty database copied, not made by initdb (seconds): the sync starts from nothing all the same.
    if (database.kind === 'pglite') await seedEmptyPglite((await database.options()).dataDir);
    const store = await database.open();
    const report = await syncSchema(store, model);
    expect(report.changed).toBe(true);
    expect(report.destructive).toEqual([]);
    expect(report.applied.map((s) => s.description)).toEqual([
      'create table nf_sign_in_attempt',
      'create table nf_setup_code',
      'create table nf_tally',
      // The notifications' tables that refer to no other.
      'create table nf_outbox',
      'create table nf_reminder',
      'create table nf_notify_secret',
      'create table nf_meta',
      // nf_user and organization refer to each other (the user field organization; created_by):
      // a cycle, so the tables come in another order and one key is added once both exist.
      'create table nf_user',
      'create table nf_session',
      'create table nf_api_token',
      'create table nf_invite',
      'create table nf_audit',
      'create table nf_saved_view',
      'create table nf_notification',
      'create table nf_mail',
      'create table nf_digest',
      'create table nf_watch',
      'create table nf_notify_preference',
      'create table nf_file',
      'create table organization (entity "organization")',
      'create table nf_file_chunk',
      'create table ticket (entity "ticket")',
      'create table comment (entity "comment")',
      // The helpdesk's attachments: a join table per file field (engine/files).
      'create table ticket__attachments (field "ticket.attachments")',
      'create table comment__attachments (field "comment.attachments")',
      'add foreign key nf_user.f_organization → organization (on delete set null)',
    ]);
    ids = await seed(store);
    await store.close();
  });

  it('keeps the data across a restart, and a second sync changes nothing in two catalogue queries', async () => {
    const store = await database.open();
    try {
      const before = store.statementCount();
      const report = await syncSchema(store, model);
      expect(report).toEqual({ changed: false, applied: [], destructive: [] });
      expect(store.statementCount() - before).toBe(2);

      const ticket = await store.db.selectFrom('ticket').selectAll().where('id', '=', ids.ticketId).executeTakeFirstOrThrow();
      expect(ticket).toMatchObject({
        id: ids.ticketId,
        version: 1,
        subject: 'The printer is on fire',
        organization: ids.organizationId,
        requester: ids.userId,
        state: 'new',
        due_at: new Date('2030-01-02T03:04:05.000Z'),
        created_by: null,
      });
      expect(ticket.created_at).toBeInstanceOf(Date);
      const user = await store.db.selectFrom('nf_user').selectAll().executeTakeFirstOrThrow();
      expect(user).toMatchObject({ email: 'ada@example.com', roles: ['agent'], disabled_at: null });
      const meta = await store.db.selectFrom('nf_meta').select(['key', 'value']).orderBy('key').execute();
      expect(meta.map((m) => m.key)).toEqual(['derived', 'schema', 'spec', 'tally']);
      expect(meta[2]!.value).toEqual({ name: 'helpdesk' });
      expect((meta[1]!.value as { managedTables: unknown }).managedTables).toEqual({
        organization: 'organization',
        ticket: 'ticket',
        comment: 'comment',
        ticket__attachments: 'ticket.attachments',
        comment__attachments: 'comment.attachments',
      });
    } finally {
      await store.close();
    }
  });

  describe('with a store', () => {
    let store: Store;
    beforeAll(async () => {
      store = await database.open();
    });

    it('searches the generated tsvector column', async () => {
      const found = await store.db
        .selectFrom('ticket')
        .select('id')
        .where(sql<boolean>`search @@ plainto_tsquery('simple', ${'smoke'})`)
        .execute();
      expect(found.map((r) => r.id)).toEqual([ids.ticketId]);
    });

    it('refuses to drop a column of a field removed from the spec, naming it, and keeps the data', async () => {
      const changed = withoutField(model, 'ticket', 'dueAt');
      const error = await syncSchema(store, changed).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SchemaChangeRefused);
      const message = (error as Error).message;
      expect(message).toContain('drop column ticket.due_at (field "dueAt" is no longer in the spec; its data would be lost)');
      expect(message).toContain(
        'Run `npm run ninefold -- migrate --allow-destructive` to apply them (their data is lost), or restore the spec.',
      );
      expect(await columnsOf(store, 'ticket')).toContain('due_at');
      const ticket = await store.db.selectFrom('ticket').select('due_at').executeTakeFirstOrThrow();
      expect(ticket.due_at).toEqual(new Date('2030-01-02T03:04:05.000Z'));
    });

    it('applies nothing at all when one change of several is refused', async () => {
      const added: FieldModel = {
        ...model.entitiesByName.organization!.fieldsByName.domain!,
        name: 'website',
        column: 'website',
        label: 'Website',
      };
      const changed = withField(withoutField(model, 'ticket', 'dueAt'), 'organization', added);
      await expect(syncSchema(store, changed)).rejects.toThrow(SchemaChangeRefused);
      expect(await columnsOf(store, 'organization')).not.toContain('website');
    });

    it('refuses a narrowing type change', async () => {
      const domain = model.entitiesByName.organization!.fieldsByName.domain!;
      const changed = withField(model, 'organization', { ...domain, type: 'integer', spec: { type: 'integer' } });
      await expect(syncSchema(store, changed)).rejects.toThrow(
        'change type of organization.domain from text to integer (field "domain" is now integer; values that do not fit would be lost or make the change fail)',
      );
      const row = await store.db.selectFrom('organization').select('domain').executeTakeFirstOrThrow();
      expect(row.domain).toBe('acme.example');
    });

    it('refuses to make an optional field required', async () => {
      const assignee = model.entitiesByName.ticket!.fieldsByName.assignee!;
      const changed = withField(model, 'ticket', { ...assignee, required: true, spec: { ...assignee.spec, required: true } });
      await expect(syncSchema(store, changed)).rejects.toThrow('make ticket.assignee NOT NULL');
    });

    it('adds a new entity by itself, and refuses to drop it again unless allowed', async () => {
      const organization = model.entitiesByName.organization!;
      const vendor: EntityModel = { ...organization, name: 'vendor', table: 'vendor', plural: 'vendors' };
      const larger: AppModel = { ...model, entities: [...model.entities, vendor], entitiesByName: { ...model.entitiesByName, vendor } };
      const report = await syncSchema(store, larger);
      expect(report.applied.map((s) => s.description)).toEqual(['create table vendor (entity "vendor")']);
      await store.db.insertInto('vendor').values({ name: 'Parts & Co', tier: 'standard' }).execute();
      await expect(syncSchema(store, model)).rejects.toThrow('drop table vendor (entity "vendor" is no longer in the spec');
      await syncSchema(store, model, { allowDestructive: true });
      expect((await introspectSchema(store.db)).tables.map((t) => t.name)).not.toContain('vendor');
    });

    it('adds a new optional field by itself', async () => {
      const website: FieldModel = {
        ...model.entitiesByName.organization!.fieldsByName.domain!,
        name: 'website',
        column: 'website',
        label: 'Website',
      };
      const larger = withField(model, 'organization', website);
      const report = await syncSchema(store, larger);
      expect(report.applied.map((s) => s.description)).toEqual(['add column organization.website']);
      expect(await columnsOf(store, 'organization')).toContain('website');
      // Going back is a drop, hence refused.
      await expect(syncSchema(store, model)).rejects.toThrow('drop column organization.website');
      await syncSchema(store, model, { allowDestructive: true });
    });

    it('adds a required field with a default, filling the rows already there', async () => {
      const tier = model.entitiesByName.organization!.fieldsByName.tier!;
      const size: FieldModel = {
        ...tier,
        name: 'size',
        column: 'size',
        label: 'Size',
        enumValues: ['small', 'large'],
        spec: { type: 'enum', values: ['small', 'large'], default: 'small', required: true },
        // The model's default (constants resolved) is what the schema reads, as buildField sets it.
        defaultTo: { kind: 'value', value: 'small', constant: null },
      };
      const report = await syncSchema(store, withField(model, 'organization', size));
      expect(report.destructive).toEqual([]);
      const row = await store.db.selectFrom('organization').select('size').executeTakeFirstOrThrow();
      expect(row.size).toBe('small');
      await syncSchema(store, model, { allowDestructive: true });
    });

    it('adds a required field without a default only to an empty table', async () => {
      const tier = model.entitiesByName.organization!.fieldsByName.tier!;
      const code: FieldModel = {
        ...tier,
        name: 'code',
        column: 'code',
        label: 'Code',
        type: 'text',
        spec: { type: 'text', required: true },
      };
      await expect(syncSchema(store, withField(model, 'organization', code))).rejects.toThrow('add required column organization.code');
      expect(await columnsOf(store, 'organization')).not.toContain('code');
      await store.db.deleteFrom('comment').execute();
      const report = await syncSchema(store, withField(model, 'comment', code));
      expect(report.destructive).toEqual([]);
      expect(report.applied.map((s) => s.kind)).toEqual(['add-column']);
      expect(await columnsOf(store, 'comment')).toContain('code');
      await syncSchema(store, model, { allowDestructive: true });
    });

    it('with allowDestructive, applies the change; the next sync is a no-op', async () => {
      const changed = withoutField(model, 'ticket', 'dueAt');
      const report = await syncSchema(store, changed, { allowDestructive: true });
      expect(report.destructive.map((s) => s.description)).toEqual([
        'drop column ticket.due_at (field "dueAt" is no longer in the spec; its data would be lost)',
      ]);
      expect(await columnsOf(store, 'ticket')).not.toContain('due_at');
      expect((await syncSchema(store, changed)).changed).toBe(false);
      // Restoring the field adds an empty column back.
      await syncSchema(store, model);
      const ticket = await store.db.selectFrom('ticket').select(['subject', 'due_at']).executeTakeFirstOrThrow();
      expect(ticket).toEqual({ subject: 'The printer is on fire', due_at: null });
    });

    it('drops the table of a removed entity only when allowed', async () => {
      const changed = withoutEntity(model, 'comment');
      await expect(syncSchema(store, changed)).rejects.toThrow(
        'drop table comment (entity "comment" is no longer in the spec; its data would be lost)',
      );
      expect((await introspectSchema(store.db)).tables.map((t) => t.name)).toContain('comment');
      await syncSchema(store, changed, { allowDestructive: true });
      // Its join tables go with it (their keys would hold it up otherwise).
      expect((await introspectSchema(store.db)).tables.map((t) => t.name)).not.toContain('comment');
      expect((await introspectSchema(store.db)).tables.map((t) => t.name)).not.toContain('comment__attachments');
      await syncSchema(store, model);
      expect((await syncSchema(store, model)).changed).toBe(false);
    });

    it("drops the join table of a removed files field only when allowed, keeping its entity's table", async () => {
      const changed = withoutField(model, 'comment', 'attachments');
      await expect(syncSchema(store, changed)).rejects.toThrow(
        'drop table comment__attachments (field "comment.attachments" is no longer in the spec; its data would be lost)',
      );
      await syncSchema(store, changed, { allowDestructive: true });
      const tables = (await introspectSchema(store.db)).tables.map((t) => t.name);
      expect(tables).not.toContain('comment__attachments');
      expect(tables).toContain('comment');
      await syncSchema(store, model);
    });

    it('trusting the record, starts with no catalogue query when the spec is unchanged, and still applies a changed spec', async () => {
      const before = store.statementCount();
      expect(await syncSchema(store, model, { trustRecorded: true })).toEqual({ changed: false, applied: [], destructive: [] });
      expect(store.statementCount() - before).toBe(2);

      const website: FieldModel = {
        ...model.entitiesByName.organization!.fieldsByName.domain!,
        name: 'website',
        column: 'website',
        label: 'Website',
      };
      const report = await syncSchema(store, withField(model, 'organization', website), { trustRecorded: true });
      expect(report.applied.map((s) => s.description)).toEqual(['add column organization.website']);
      await expect(syncSchema(store, model, { trustRecorded: true })).rejects.toThrow('drop column organization.website');
      await syncSchema(store, model, { allowDestructive: true });
    });

    it('a schema changed by hand escapes the trusted start; the full comparison (migrate) repairs it', async () => {
      await sql`alter table organization drop column domain`.execute(store.db);
      expect((await syncSchema(store, model, { trustRecorded: true })).changed).toBe(false);
      expect(await columnsOf(store, 'organization')).not.toContain('domain');
      const report = await syncSchema(store, model);
      expect(report.applied.map((s) => s.description)).toEqual([
        'add column organization.domain',
        'add index organization_domain_idx on organization (domain, id)',
      ]);
      expect(await columnsOf(store, 'organization')).toContain('domain');
    });

    it('leaves tables it does not manage alone', async () => {
      await sql`create table reports_by_hand (id integer primary key, note text)`.execute(store.db);
      expect((await syncSchema(store, model)).changed).toBe(false);
      await syncSchema(store, model, { allowDestructive: true });
      expect((await introspectSchema(store.db)).tables.map((t) => t.name)).toContain('reports_by_hand');
    });
  });
});
