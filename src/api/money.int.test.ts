import { parse } from 'csv-parse/sync';
import { beforeAll, expect, it } from 'vitest';
import type { TestEngine } from '@testing/engine/engine';
import { createActor } from '@testing/engine/ops';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import { forEachDatabase } from '@testing/engine/store';
import { importCsv } from '@/engine/csv/import-csv';
import { listCsv } from '@/server/csv/export-csv';
import { listColumns } from '@/ui/columns';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';

/*
 * Money through every door: invoices in the spec's currency (EUR, two digits) and in yen (none),
 * a client's open total derived from its invoices, a gross amount computed from the net. Stored
 * exactly, carried plain ("38533.32") by ops, the API and CSV, both ways.
 */
const SPEC = {
  name: 'money',
  purpose: { title: 'Invoices', currency: 'EUR', locale: 'de-DE' },
  entities: {
    client: {
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true },
        openTotal: { type: 'money', derived: { sum: 'invoice.amount', where: { field: 'paid', op: 'eq', value: false } } },
      },
    },
    invoice: {
      titleField: 'title',
      fields: {
        title: { type: 'text', required: true },
        client: { type: 'reference', to: 'client', required: true },
        amount: { type: 'money', required: true, min: 0 },
        gross: { type: 'money', computed: { multiply: [{ field: 'amount' }, 1.2] } },
        yen: { type: 'money', currency: 'JPY' },
        paid: { type: 'boolean', required: true, default: false },
      },
    },
  },
  roles: { clerk: { label: 'Clerk' } },
  permissions: {
    client: { clerk: { list: true, read: true, create: true } },
    invoice: { clerk: { list: true, read: true, create: true, update: true } },
  },
} as const;

const model = buildModel(SPEC as unknown as AppSpec);
const file = (text: string) => new TextEncoder().encode(text);

forEachDatabase('money fields through ops, the API and CSV', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let clerk: Actor;
  let token: string;
  let acme: number;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    clerk = await createActor(engine.store.db, ['clerk'], 'Clara Clerk');
    token = (await engine.identity.createApiToken(clerk.userId, { name: 'money' })).token;
    acme = (await engine.ops.create(clerk, 'client', { name: 'Acme' })).id;
  });

  it('stores amounts exactly with their currency’s digits, computes and derives them as money', async () => {
    const big = await engine.ops.create(clerk, 'invoice', { title: 'Big', client: acme, amount: '38533.32', yen: '1200' });
    expect(big).toMatchObject({ amount: '38533.32', gross: '46239.98', yen: '1200' });
    await engine.ops.create(clerk, 'invoice', { title: 'Small', client: acme, amount: 12.5 });
    expect((await engine.ops.get(clerk, 'client', acme)).record.openTotal).toBe('38545.82');
  });

  it('refuses more digits than the currency has, naming the field, and writes nothing', async () => {
    const before = await snapshot(engine.store.db, ['invoice']);
    const cents = await api.call('POST', '/invoices', { token, body: { title: 'Odd', client: acme, amount: '10.005' } });
    expectProblem(cents, 422, 'VALIDATION_FAILED');
    expect(cents.body.errors).toEqual([
      expect.objectContaining({ pointer: '/amount', detail: 'Amount can have at most 2 decimal places (EUR).' }),
    ]);
    const yen = await api.call('POST', '/invoices', { token, body: { title: 'Odd', client: acme, amount: '1', yen: '12.5' } });
    expect(yen.body.errors).toEqual([expect.objectContaining({ pointer: '/yen', detail: 'Yen must be a whole amount of JPY.' })]);
    expect(await snapshot(engine.store.db, ['invoice'])).toEqual(before);
  });

  it('carries plain decimal strings through the API: create, update, sort', async () => {
    const created = await api.call('POST', '/invoices', { token, body: { title: 'Mid', client: acme, amount: 9485.65 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ amount: '9485.65', gross: '11382.78' });
    const updated = await api.call('PATCH', `/invoices/${created.body.id}`, {
      token,
      body: { amount: '178225.2' },
      headers: { 'if-match': `"${created.body.version}"` },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.amount).toBe('178225.20');
    const sorted = await api.call('GET', '/invoices?sort=-amount', { token });
    expect(sorted.body.items.map((i: { amount: string }) => i.amount)).toEqual(['178225.20', '38533.32', '12.50']);
    const document = await api.call('GET', '/openapi.json');
    expect(document.body.components.schemas.Invoice.properties.yen.description).toContain('An amount of JPY (ISO 4217)');
  });

  it('exports amounts as stored, not as pages show them, and imports them back', async () => {
    const invoice = model.entitiesByName.invoice!;
    const { columns } = listColumns(model, invoice, new Set(engine.ops.access(clerk, 'invoice').readable), ['title', 'amount', 'yen']);
    const text = new TextDecoder().decode(
      await new Response(await listCsv(engine.ops, clerk, invoice, { sort: 'id' }, columns)).arrayBuffer(),
    );
    expect((parse(text) as string[][]).slice(1, 3)).toEqual([
      ['Big', '38533.32', '1200'],
      ['Small', '12.50', ''],
    ]);
    const report = await importCsv(engine.ops, model, clerk, 'invoice', file(`Title,Client,Amount,Yen\nImported,${acme},38533.32,1200\n`), {
      maxBytes: 1 << 20,
    });
    expect(report).toMatchObject({ created: 1, refusedRows: 0 });
    const [row] = await engine.store.db.selectFrom('invoice').select(['amount', 'yen']).where('title', '=', 'Imported').execute();
    expect([String(row!.amount), String(row!.yen)]).toEqual(['38533.32', '1200']);
  });
});
