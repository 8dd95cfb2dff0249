import { parse } from 'csv-parse/sync';
import { beforeAll, expect, it } from 'vitest';
import { noticeBoardSpec } from '@testing/engine/public';
import { visitorActor } from '@/engine/access/visitor';
import type { TestEngine } from '@testing/engine/engine';
import { captureLog } from '@/engine/log';
import { createActor } from '@testing/engine/ops';
import type { RecordData } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { listCsv } from '@/server/csv/export-csv';
import { listColumns } from '@/ui/columns';
import { apiClient, openTestEngine, type ApiClient } from '@testing/api/api';

/*
 * Who created a record and who changed it last (createdBy, updatedBy) follow the field rules like
 * any field, through every door: visitors (`public`) never see them, a role may hide them
 * (`hiddenFields`), and the history names who made a change only to those who may see that
 * column (createdBy for the creation, updatedBy for every later change).
 */

const model = buildModel({
  ...noticeBoardSpec,
  roles: { ...noticeBoardSpec.roles, clerk: { label: 'Clerk', description: 'Reads the notices, never who last changed them.' } },
  permissions: {
    ...noticeBoardSpec.permissions,
    notice: { ...noticeBoardSpec.permissions!.notice, clerk: { list: true, read: true, hiddenFields: ['updatedBy'] } },
  },
});

const keysOf = (record: object) => Object.keys(record);

forEachDatabase('authors follow the field rules', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let agent: Actor;
  let clerk: Actor;
  let notice: RecordData;
  let agentToken: string;
  let clerkToken: string;

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    agent = await createActor(engine.store.db, ['agent'], 'Agent Authors');
    clerk = await createActor(engine.store.db, ['clerk'], 'Clerk Authors');
    agentToken = (await engine.identity.createApiToken(agent.userId, { name: 'authors' })).token;
    clerkToken = (await engine.identity.createApiToken(clerk.userId, { name: 'authors' })).token;
    const draft = await engine.ops.create(agent, 'notice', { title: 'Open on Sunday', body: 'From ten.' });
    notice = await engine.ops.transition(agent, 'notice', draft.id, 'publish', { version: draft.version });
  });

  it('are never shown to visitors: not in records, lists or the history, and no list is filtered by them', async () => {
    const visitor = visitorActor();
    const { record } = await engine.ops.get(visitor, 'notice', notice.id);
    expect(keysOf(record)).not.toContain('createdBy');
    expect(keysOf(record)).not.toContain('updatedBy');
    for (const row of (await engine.ops.list(visitor, 'notice')).rows) expect(keysOf(row).filter((k) => k.endsWith('By'))).toEqual([]);
    const history = await engine.ops.history(visitor, 'notice', notice.id);
    expect(history.entries.map((e) => [e.action, e.actor, e.actorHidden])).toEqual([
      ['transition', null, true],
      ['create', null, true],
    ]);
    const listed = await api.call('GET', '/notices', { ip: '198.51.100.7' });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain('createdBy');
    expect(listed.text).not.toContain('updatedBy');
    const read = await api.call('GET', `/notices/${notice.id}`, { ip: '198.51.100.7' });
    expect(keysOf(read.body).filter((k) => k.endsWith('By'))).toEqual([]);
    // A list filtered by who wrote the records would tell them apart.
    const { result: filtered } = await captureLog(() =>
      engine.ops.list(visitor, 'notice', { filters: { createdBy: String(agent.userId) } }).catch((error: unknown) => error),
    );
    expect(filtered).toMatchObject({ code: 'FORBIDDEN_FIELD', fieldErrors: [{ field: 'createdBy' }] });
  });

  it('are hidden from a role whose grant hides them, and shown to the others (the test can fail)', async () => {
    const asClerk = await api.call('GET', `/notices/${notice.id}`, { token: clerkToken });
    expect(asClerk.body).toMatchObject({ createdBy: agent.userId });
    expect(keysOf(asClerk.body)).not.toContain('updatedBy');
    const asAgent = await api.call('GET', `/notices/${notice.id}`, { token: agentToken });
    expect(asAgent.body).toMatchObject({ createdBy: agent.userId, updatedBy: agent.userId });
    // The history: who created it, for the clerk; not who changed it since.
    const history = await api.call('GET', `/notices/${notice.id}/history`, { token: clerkToken });
    expect(history.body.items.map((e: { action: string; actor: unknown }) => [e.action, e.actor])).toEqual([
      ['transition', null],
      ['create', { id: agent.userId, name: 'Agent Authors' }],
    ]);
    const full = await api.call('GET', `/notices/${notice.id}/history`, { token: agentToken });
    expect(full.body.items.map((e: { actor: { id: number } | null }) => e.actor?.id)).toEqual([agent.userId, agent.userId]);
  });

  it('leaves a hidden author out of a CSV export, even when its column is asked for', async () => {
    const entity = model.entitiesByName.notice!;
    const exported = async (actor: Actor) => {
      const { columns } = listColumns(model, entity, new Set(engine.ops.access(actor, 'notice').readable), [
        'title',
        'createdBy',
        'updatedBy',
      ]);
      const stream = await listCsv(engine.ops, actor, entity, {}, columns);
      return parse((await new Response(stream).text()).replace(/^\uFEFF/, '')) as string[][];
    };
    expect((await exported(clerk))[0]).toEqual(['Title', 'Created by']);
    expect((await exported(agent))[0]).toEqual(['Title', 'Created by', 'Updated by']);
  });
});
