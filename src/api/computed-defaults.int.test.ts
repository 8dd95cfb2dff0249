import { beforeAll, describe, expect, it } from 'vitest';
import type { TestEngine } from '@testing/engine/engine';
import { createActor } from '@testing/engine/ops';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import { forEachDatabase } from '@testing/engine/store';
import { importCsv } from '@/engine/csv/import-csv';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';

/*
 * Computed fields and defaults through the API and CSV import: a patient books a visit; the
 * booking points at the patient's own record unless another is given, takes its priority and fee
 * from constants, and ends when its duration says, which no door may write.
 */
const SPEC = {
  name: 'clinic-defaults',
  entities: {
    patient: { titleField: 'name', fields: { name: { type: 'text', required: true }, account: { type: 'user' } } },
    booking: {
      titleField: 'reason',
      fields: {
        reason: { type: 'text', required: true },
        patient: { type: 'reference', to: 'patient', required: true, default: { own: 'account' } },
        priority: { type: 'enum', values: ['low', 'normal', 'high'], default: { $constant: 'defaultPriority' } },
        fee: { type: 'decimal', default: { $constant: 'standardFee' } },
        startsAt: { type: 'datetime', required: true },
        minutes: { type: 'integer', required: true },
        endsAt: { type: 'datetime', computed: { from: 'startsAt', plus: { minutes: { field: 'minutes' } } } },
      },
    },
  },
  roles: { patient: { label: 'Patient' }, staff: { label: 'Staff' } },
  permissions: {
    patient: { patient: { list: { own: 'account' }, read: { own: 'account' } }, staff: { list: true, read: true, create: true } },
    booking: { patient: { list: true, read: true, create: true }, staff: { list: true, read: true, create: true } },
  },
  constants: { defaultPriority: { value: 'normal' }, standardFee: { value: 45.5 } },
} as const;

const model = buildModel(SPEC as unknown as AppSpec);
const file = (text: string) => new TextEncoder().encode(text);

forEachDatabase('computed fields and defaults through the API and imports', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let paula: Actor;
  let newcomer: Actor;
  let token: string;
  let newcomerToken: string;
  let paulasRecord: number;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    const staff = await createActor(engine.store.db, ['staff'], 'Sam Staff');
    paula = await createActor(engine.store.db, ['patient'], 'Paula Patient');
    newcomer = await createActor(engine.store.db, ['patient'], 'Nina Newcomer');
    // First by id: a default that did not look at `account` would pick this one.
    await engine.ops.create(staff, 'patient', { name: 'Someone else', account: staff.userId });
    paulasRecord = (await engine.ops.create(staff, 'patient', { name: 'Paula', account: paula.userId })).id;
    token = (await engine.identity.createApiToken(paula.userId, { name: 'defaults' })).token;
    newcomerToken = (await engine.identity.createApiToken(newcomer.userId, { name: 'defaults' })).token;
  });

  describe('defaults', () => {
    it("fills the actor's own record and constants on create through ops, and offers them to the new-record form", async () => {
      const booking = await engine.ops.create(paula, 'booking', { reason: 'Checkup', startsAt: '2026-05-01T08:00:00Z', minutes: 20 });
      expect(booking).toMatchObject({ patient: paulasRecord, priority: 'normal', fee: '45.50' });
      expect(await engine.ops.createDefaults(paula, 'booking')).toEqual({ patient: paulasRecord });
      expect(await engine.ops.createDefaults(newcomer, 'booking')).toEqual({});
    });

    it('fills them through the API when the body leaves them out, and keeps a value given', async () => {
      const created = await api.call('POST', '/bookings', {
        token,
        body: { reason: 'Flu', startsAt: '2026-05-02T09:00:00Z', minutes: 45 },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ patient: paulasRecord, priority: 'normal', fee: '45.50', endsAt: '2026-05-02T09:45:00.000Z' });
      const urgent = await api.call('POST', '/bookings', {
        token,
        body: { reason: 'Sprain', startsAt: '2026-05-02T10:00:00Z', minutes: 10, priority: 'high' },
      });
      expect(urgent.body).toMatchObject({ priority: 'high' });
    });

    it('gives no default to an actor without a record of their own: required answers as usual', async () => {
      const before = await snapshot(engine.store.db, ['booking']);
      const refused = await api.call('POST', '/bookings', {
        token: newcomerToken,
        body: { reason: 'First visit', startsAt: '2026-05-03T09:00:00Z', minutes: 30 },
      });
      expectProblem(refused, 422, 'VALIDATION_FAILED');
      expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '/patient', code: 'required' })]);
      expect(await snapshot(engine.store.db, ['booking'])).toEqual(before);
    });

    it('says the defaults in the OpenAPI document, and that a computed field is read-only', async () => {
      const document = await api.call('GET', '/openapi.json');
      const schemas = document.body.components.schemas as Record<string, { properties: Record<string, Record<string, unknown>> }>;
      const input = Object.values(schemas).find((s) => s.properties?.priority && !s.properties?.id);
      expect(input?.properties.priority?.default).toBe('normal');
      expect(String(input?.properties.patient?.description)).toContain('your own patient');
      const record = Object.values(schemas).find((s) => s.properties?.endsAt && s.properties?.id);
      expect(record?.properties.endsAt).toMatchObject({ readOnly: true });
      expect(String(record?.properties.endsAt?.description)).toContain('Starts at plus Minutes minutes');
    });
  });

  describe('computed fields', () => {
    it('refuses a computed value sent to the API, naming the field, and writes nothing', async () => {
      const before = await snapshot(engine.store.db, ['booking']);
      const refused = await api.call('POST', '/bookings', {
        token,
        body: { reason: 'Sneaky', startsAt: '2026-05-04T09:00:00Z', minutes: 30, endsAt: '2026-05-04T12:00:00Z' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'FORBIDDEN_FIELD', errors: [{ pointer: '/endsAt' }] });
      expect(await snapshot(engine.store.db, ['booking'])).toEqual(before);
    });

    it('computes imported rows and fills their defaults; refuses a file that gives the computed column', async () => {
      const report = await importCsv(
        engine.ops,
        model,
        paula,
        'booking',
        file('Reason,Starts at,Minutes\nImported one,2026-06-01T08:00:00Z,15\nImported two,2026-06-01T09:00:00Z,60\n'),
        { maxBytes: 1 << 20 },
      );
      expect(report.created).toBe(2);
      const rows = await engine.store.db
        .selectFrom('booking')
        .select(['reason', 'patient', 'priority', 'ends_at'])
        .where('reason', 'like', 'Imported%')
        .orderBy('id')
        .execute();
      expect(rows.map((r) => [r.reason, Number(r.patient), r.priority, (r.ends_at as Date).toISOString()])).toEqual([
        ['Imported one', paulasRecord, 'normal', '2026-06-01T08:15:00.000Z'],
        ['Imported two', paulasRecord, 'normal', '2026-06-01T10:00:00.000Z'],
      ]);
      const refused = await importCsv(
        engine.ops,
        model,
        paula,
        'booking',
        file('Reason,Starts at,Minutes,Ends at\nNope,2026-06-02T08:00:00Z,15,2026-06-02T09:00:00Z\n'),
        { maxBytes: 1 << 20 },
      ).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'Ends at' }] });
    });
  });
});
