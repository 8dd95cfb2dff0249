import { beforeAll, expect, it } from 'vitest';
import type { TestEngine } from '@testing/engine/engine';
import { forEachDatabase } from '@testing/engine/store';
import { apiClient, expectProblem, openTestEngine, snapshot, type ApiClient } from '@testing/api/api';
import { webhookDeskModel } from '@testing/webhooks/desk-model';
import { SYSTEM_ACTOR } from '@/engine/identity/system-actor';
import { buildModel } from '@/engine/spec/build';
import { enqueueWebhookDeliveries } from '@/engine/notify/webhooks/enqueue';
import { WEBHOOK_DELIVERY_TABLE } from '@/engine/notify/webhooks/tables';
import { buildOpenApiDocument } from './openapi/document';

/** The webhook delivery log through /api/v1: administrators only, checked against the OpenAPI document. */

forEachDatabase('API: webhook deliveries', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let adminToken: string;
  let agentToken: string;
  let deliveryId: number;

  beforeAll(async () => {
    engine = await openTestEngine(database, webhookDeskModel);
    api = apiClient(engine);
    const admin = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'root@desk.test',
      password: 'correct horse battery',
      name: 'Root',
      roles: ['admin'],
    });
    const agent = await engine.identity.createUser(SYSTEM_ACTOR, {
      email: 'ada@desk.test',
      password: 'correct horse battery',
      name: 'Ada',
      roles: ['agent'],
    });
    adminToken = (await engine.identity.createApiToken(admin.id, { name: 'tests' })).token;
    agentToken = (await engine.identity.createApiToken(agent.id, { name: 'tests' })).token;
    const change = { entity: 'ticket', recordId: 41, kind: 'create' as const, changed: ['subject'], actorId: null, at: new Date() };
    await engine.store.db
      .transaction()
      .execute((trx) => enqueueWebhookDeliveries(trx, webhookDeskModel, change, async () => ({ id: 41, subject: 'Hello <there>' })));
    const row = await engine.store.db
      .selectFrom(WEBHOOK_DELIVERY_TABLE)
      .select('id')
      .where('webhook', '=', 'crm')
      .executeTakeFirstOrThrow();
    deliveryId = Number(row.id);
  });

  it('lists the deliveries to an administrator, with the payload as sent', async () => {
    const answer = await api.call('GET', '/webhooks/deliveries?webhook=crm&limit=10', { token: adminToken });
    expect(answer.status).toBe(200);
    expect(answer.body.nextCursor).toBeNull();
    expect(answer.body.items).toEqual([
      expect.objectContaining({
        id: deliveryId,
        webhook: 'crm',
        eventType: 'ticket.created',
        status: 'pending',
        attempts: 0,
        log: [],
        payload: expect.objectContaining({
          type: 'ticket.created',
          data: { entity: 'ticket', id: 41, record: { id: 41, subject: 'Hello <there>' }, changed: ['subject'] },
        }),
      }),
    ]);
  });

  it('refuses anyone else with FORBIDDEN, and changes nothing', async () => {
    expectProblem(await api.call('GET', '/webhooks/deliveries', { token: agentToken }), 403, 'FORBIDDEN');
    const before = await snapshot(engine.store.db, [WEBHOOK_DELIVERY_TABLE]);
    expectProblem(await api.call('POST', `/webhooks/deliveries/${deliveryId}/retry`, { token: agentToken }), 403, 'FORBIDDEN');
    expectProblem(await api.call('POST', '/webhooks/deliveries/nope/retry', { token: agentToken }), 403, 'FORBIDDEN');
    expect(await snapshot(engine.store.db, [WEBHOOK_DELIVERY_TABLE])).toEqual(before);
    expectProblem(await api.call('GET', '/webhooks/deliveries'), 401, 'UNAUTHENTICATED');
  });

  it('sends a delivery again for an administrator; an unknown one is NOT_FOUND', async () => {
    await engine.store.db.updateTable(WEBHOOK_DELIVERY_TABLE).set({ status: 'failed', attempts: 8 }).where('id', '=', deliveryId).execute();
    const answer = await api.call('POST', `/webhooks/deliveries/${deliveryId}/retry`, { token: adminToken });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ id: deliveryId, status: 'pending' });
    const row = await engine.store.db.selectFrom(WEBHOOK_DELIVERY_TABLE).selectAll().where('id', '=', deliveryId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 8 });
    expectProblem(await api.call('POST', '/webhooks/deliveries/99999999/retry', { token: adminToken }), 404, 'NOT_FOUND');
    expectProblem(await api.call('POST', '/webhooks/deliveries/0x1/retry', { token: adminToken }), 404, 'NOT_FOUND');
  });

  it('answers a bad filter with VALIDATION_FAILED naming each parameter', async () => {
    const answer = await api.call('GET', '/webhooks/deliveries?status=lost&colour=red', { token: adminToken });
    expectProblem(answer, 422, 'VALIDATION_FAILED');
    expect(answer.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/colour']);
    const status = await api.call('GET', '/webhooks/deliveries?status=lost&cursor=x', { token: adminToken });
    expectProblem(status, 422, 'VALIDATION_FAILED');
    expect(status.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/status', '/cursor']);
  });
});

it('is in the OpenAPI document only for a spec that declares webhooks', () => {
  const withHooks = buildOpenApiDocument(webhookDeskModel);
  expect(Object.keys(withHooks.paths)).toEqual(expect.arrayContaining(['/webhooks/deliveries', '/webhooks/deliveries/{id}/retry']));
  const { webhooks: _dropped, ...withoutHooks } = webhookDeskModel.spec;
  expect(Object.keys(buildOpenApiDocument(buildModel(withoutHooks)).paths)).not.toContain('/webhooks/deliveries');
});
