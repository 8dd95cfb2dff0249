import { beforeAll, describe, expect, it } from 'vitest';
import { personasOf } from '@testing/access-matrix/oracle';
import { createMatrixFixtures, expectedMatrix, opsDoor, runMatrix, type MatrixFixtures } from '@testing/access-matrix/run';
import { noticeBoardSpec } from '@testing/engine/public';
import type { TestEngine } from '@testing/engine/engine';
import { captureLog } from '@/engine/log';
import { testModel } from '@testing/engine/ops';
import { buildModel } from '@/engine/spec/build';
import type { AppSpec } from '@/engine/spec/types';
import { forEachDatabase } from '@testing/engine/store';
import { restDoor } from '@testing/api/matrix-door';
import { apiClient, openTestEngine, type ApiClient } from '@testing/api/api';

/*
 * The permission matrix of a spec with visitors (the built-in `public` role): a `visitor`
 * persona who is not signed in, beside the roles, who all hold the public's grants too. Asked of
 * ops and of the REST door (the visitor with no credentials at all), cell by cell.
 */

const model = buildModel({
  ...noticeBoardSpec,
  constants: { apiRateLimitPerMinute: { value: 1_000_000 }, apiRateLimitPerIpPerMinute: { value: 1_000_000 } },
});

/** The notice board with the public's read scope dropped: visitors list published notices, but may read none. */
function withoutPublicRead(): AppSpec {
  const { read: _dropped, ...publicGrant } = noticeBoardSpec.permissions!.notice!.public!;
  return {
    ...noticeBoardSpec,
    permissions: { ...noticeBoardSpec.permissions, notice: { ...noticeBoardSpec.permissions!.notice, public: publicGrant } },
  };
}

forEachDatabase('permission matrix with visitors', (database) => {
  let engine: TestEngine;
  let api: ApiClient;
  let fixtures: MatrixFixtures;
  const tokens = new Map<number, string>();

  beforeAll(async () => {
    engine = await openTestEngine(database, model);
    api = apiClient(engine);
    fixtures = await createMatrixFixtures(model, engine.store.db);
    for (const user of fixtures.users) {
      if (!user.persona.visitor)
        tokens.set(user.actor.userId, (await engine.identity.createApiToken(user.actor.userId, { name: 'matrix' })).token);
    }
  });

  it('has a visitor persona where the spec grants the public something, and none where it does not', () => {
    expect(fixtures.users.map((u) => u.persona.name)).toEqual(['agent', 'admin', 'no role', 'visitor']);
    expect(personasOf(testModel).map((p) => p.name)).not.toContain('visitor');
    const cells = expectedMatrix(model, fixtures);
    expect(cells.get('visitor × notice × read [state: "published"]')).toBe('allowed');
    expect(cells.get('visitor × notice × read [state: "draft"]')).toBe('hidden');
    expect(cells.get('visitor × notice × update [state: "published"]')).toBe('forbidden');
    expect(cells.get('visitor × message × create [any record]')).toBe('allowed');
    expect(cells.get('visitor × message × read [any record]')).toBe('forbidden');
    expect(cells.get('visitor × board × list [any record]')).toBe('forbidden');
    // Every signed-in user holds the public's grants: a user with no role reads published notices.
    expect(cells.get('no role × notice × read [state: "published"]')).toBe('allowed');
    expect(cells.get('no role × notice × read [state: "draft"]')).toBe('hidden');
    expect(cells.get('no role × message × create [any record]')).toBe('allowed');
  });

  it('holds through ops, and a refusal changes nothing', async () => {
    const { result } = await captureLog(() => runMatrix(model, engine.store.db, fixtures, opsDoor(engine.ops)));
    expect(result.mismatches).toEqual([]);
    expect(result.outcomes.allowed).toBeGreaterThan(10);
    expect(result.outcomes.forbidden).toBeGreaterThan(10);
  });

  it('holds through the REST door, the visitor sending no credentials', async () => {
    const { result } = await captureLog(() => runMatrix(model, engine.store.db, fixtures, restDoor(engine, api, tokens)));
    expect(result.mismatches).toEqual([]);
    expect(result.checks).toBeGreaterThan(60);
  });

  describe('has teeth', () => {
    it("moves the visitor's and every user's reads of published notices when the public's read grant goes", () => {
      const before = expectedMatrix(model, fixtures);
      const after = expectedMatrix(buildModel(withoutPublicRead()), fixtures);
      const moved = [...before]
        .filter(([cell, outcome]) => after.get(cell) !== outcome)
        .map(([cell, outcome]) => `${cell}: ${outcome} → ${after.get(cell)}`);
      expect(moved).toContain('visitor × notice × read [state: "published"]: allowed → forbidden');
      expect(moved).toContain('no role × notice × read [state: "published"]: allowed → forbidden');
      // Only reads of notices move (and transitions, which need the record readable), and only for those who hold no read grant
      // of their own (admin has none on notices).
      expect(moved).toContain('admin × notice × read [state: "draft"]: hidden → forbidden');
      expect(moved).toContain('admin × notice × publish [state: "draft"]: hidden → forbidden');
      for (const line of moved) expect(line).toMatch(/^(visitor|no role|admin) × notice × (read|publish) /);
    });
  });
});
