import { beforeAll, describe, expect, it } from 'vitest';
import { createMatrixFixtures, outcomeOfCode, runMatrix, type Answer, type MatrixDoor, type MatrixFixtures, type MatrixUser } from '@/engine/access/matrix-testing';
import type { Engine } from '@/engine/engine';
import { captureLog } from '@/engine/log';
import type { RecordValue } from '@/engine/ops/types';
import { testModel } from '@/engine/ops/testing';
import type { EntityModel } from '@/engine/spec/model';
import { forEachDatabase } from '@/engine/store/testing';
import { apiClient, openTestEngine, type ApiAnswer, type ApiClient } from './testing';
import { fieldToWire } from './wire';

/** A JSON body as a client sends it: values as the wire writes them (dates as ISO strings). */
function wireInput(entity: EntityModel, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).map(([name, value]) => {
      const field = entity.fieldsByName[name];
      return [name, field ? fieldToWire(field, value as RecordValue) : value];
    }),
  );
}

function outcomeOf(answer: ApiAnswer): Answer {
  if (answer.status >= 200 && answer.status < 300) return 'allowed';
  const code = typeof answer.body?.code === 'string' ? answer.body.code : `status ${answer.status}`;
  const fieldCodes: string[] = Array.isArray(answer.body?.errors) ? answer.body.errors.map((e: { code: string }) => e.code) : [];
  return outcomeOfCode(code, fieldCodes);
}

/** The REST door, each persona with its own API token and client address (so that no rate limit is shared). */
function restDoor(engine: Engine, api: ApiClient, tokens: ReadonlyMap<number, string>): MatrixDoor {
  const entity = (name: string) => engine.model.entitiesByName[name];
  const as = (user: MatrixUser) => ({ token: tokens.get(user.actor.userId)!, ip: `198.51.100.${user.actor.userId % 250}` });
  return {
    name: 'REST',
    async list(user, name) {
      const ids: number[] = [];
      let cursor: string | null = null;
      do {
        const answer = await api.call('GET', `/${entity(name).plural}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, as(user));
        if (answer.status !== 200) return outcomeOf(answer);
        ids.push(...answer.body.items.map((item: { id: number }) => item.id));
        cursor = answer.body.nextCursor;
      } while (cursor);
      return ids;
    },
    read: async (user, name, id) => outcomeOf(await api.call('GET', `/${entity(name).plural}/${id}`, as(user))),
    create: async (user, name, input) => outcomeOf(await api.call('POST', `/${entity(name).plural}`, { ...as(user), body: wireInput(entity(name), input) })),
    update: async (user, name, id, input, version) =>
      outcomeOf(await api.call('PATCH', `/${entity(name).plural}/${id}`, { ...as(user), body: wireInput(entity(name), input), headers: { 'if-match': `"${version}"` } })),
    delete: async (user, name, id, version) =>
      outcomeOf(await api.call('DELETE', `/${entity(name).plural}/${id}`, { ...as(user), headers: { 'if-match': `"${version}"` } })),
  };
}

forEachDatabase('API: permission matrix', (database) => {
  let engine: Engine;
  let api: ApiClient;
  let fixtures: MatrixFixtures;
  const tokens = new Map<number, string>();

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    api = apiClient(engine);
    fixtures = await createMatrixFixtures(testModel, engine.store.db);
    for (const user of fixtures.users) tokens.set(user.actor.userId, (await engine.identity.createApiToken(user.actor.userId, { name: 'matrix' })).token);
  });

  it('holds the permission matrix of the spec, every answer as the OpenAPI document says; a refusal changes nothing', async () => {
    const { result, lines } = await captureLog(() => runMatrix(testModel, engine.store.db, fixtures, restDoor(engine, api, tokens)));
    expect(result.mismatches).toEqual([]);
    expect(result.checks).toBeGreaterThan(500);
    // Every FORBIDDEN and FORBIDDEN_FIELD refusal was logged once, naming who and what, never a value.
    const refusals = lines.filter((l) => l.msg === 'access refused');
    expect(refusals.length).toBe(result.refusedCalls);
    expect(result.refusedCalls).toBeGreaterThan(100);
    for (const line of refusals) {
      expect(line).toMatchObject({ level: 'warn', actor: expect.any(Number), entity: expect.any(String), action: expect.any(String) });
      expect(Object.keys(line).sort()).toEqual(expect.arrayContaining(['actor', 'action', 'code', 'entity', 'level', 'msg', 'time']));
      for (const key of Object.keys(line)) expect(['time', 'level', 'msg', 'code', 'actor', 'entity', 'action', 'field', 'fields']).toContain(key);
    }
  });

  describe('refusals', () => {
    it('name the field a list may not be filtered, sorted or searched by, with 403 FORBIDDEN_FIELD', async () => {
      const customer = fixtures.users.find((u) => u.persona.name === 'customer')!;
      const as = { token: tokens.get(customer.actor.userId)!, ip: '198.51.100.251' };
      const cases: [string, string][] = [
        ['/comments?internal=true', 'internal'],
        ['/comments?sort=-internal', 'internal'],
        ['/tickets?assignee=1', 'assignee'],
        ['/tickets?sort=organization', 'organization'],
      ];
      for (const [path, field] of cases) {
        const { result: answer, lines } = await captureLog(() => api.call('GET', path, as));
        expect(answer.status, path).toBe(403);
        expect(answer.body).toMatchObject({ code: 'FORBIDDEN_FIELD', errors: [{ pointer: `/${field}`, code: 'forbidden_field' }] });
        expect(lines).toEqual([expect.objectContaining({ msg: 'access refused', code: 'FORBIDDEN_FIELD', entity: path.split(/[/?]/)[1].slice(0, -1), action: 'list', field, actor: customer.actor.userId })]);
      }
      // Fields they may read are fine.
      expect((await api.call('GET', '/tickets?priority=high&sort=-state', as)).status).toBe(200);
      expect((await api.call('GET', '/comments?q=anything', as)).status).toBe(200);
    });
  });
});
