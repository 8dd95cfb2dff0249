import { beforeAll, describe, expect, it } from 'vitest';
import { MATRIX_TIMEOUT_MS, createMatrixFixtures, runMatrix, type MatrixFixtures } from '@testing/access-matrix/run';
import type { TestEngine } from '@testing/engine/engine';
import { captureLog } from '@/engine/log';
import { testModel } from '@testing/engine/ops';
import { forEachDatabase } from '@testing/engine/store';
import { restDoor } from '@testing/api/matrix-door';
import { apiClient, openTestEngine, type ApiClient } from '@testing/api/api';

forEachDatabase('API: permission matrix', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let fixtures: MatrixFixtures;
  const tokens = new Map<number, string>();

  beforeAll(async () => {
    engine = await openTestEngine(database, testModel);
    api = apiClient(engine);
    fixtures = await createMatrixFixtures(testModel, engine.store.db);
    for (const user of fixtures.users)
      tokens.set(user.actor.userId, (await engine.identity.createApiToken(user.actor.userId, { name: 'matrix' })).token);
  });

  it(
    'holds the permission matrix of the spec, every answer as the OpenAPI document says; a refusal changes nothing',
    async () => {
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
        for (const key of Object.keys(line))
          expect(['time', 'level', 'msg', 'code', 'actor', 'entity', 'action', 'field', 'fields']).toContain(key);
      }
    },
    MATRIX_TIMEOUT_MS,
  );

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
        expect(lines).toEqual([
          expect.objectContaining({
            msg: 'access refused',
            code: 'FORBIDDEN_FIELD',
            entity: path.split(/[/?]/)[1]!.slice(0, -1),
            action: 'list',
            field,
            actor: customer.actor.userId,
          }),
        ]);
      }
      // Fields they may read are fine.
      expect((await api.call('GET', '/tickets?priority=high&sort=-state', as)).status).toBe(200);
      expect((await api.call('GET', '/comments?q=anything', as)).status).toBe(200);
    });
  });
});
