import { beforeAll, expect, it } from 'vitest';
import publication from '../../examples/publication/ninefold.spec';
import {
  MATRIX_TIMEOUT_MS,
  createMatrixFixtures,
  expectedMatrix,
  opsDoor,
  runMatrix,
  type MatrixFixtures,
} from '@testing/access-matrix/run';
import type { TestEngine } from '@testing/engine/engine';
import { captureLog } from '@/engine/log';
import { buildModel } from '@/engine/spec/build';
import { forEachDatabase } from '@testing/engine/store';
import { restDoor } from '@testing/api/matrix-door';
import { apiClient, openTestEngine, type ApiClient } from '@testing/api/api';

/*
 * The permission matrix of the publication example, asked of ops and of the REST door: teams in
 * the users' fields (`{ actor: 'team' }`), visitors, transitions reserved to owners and editors
 * with a guard, and writers and editors moved to another team after writing their articles,
 * who may then neither read nor write their former team's drafts. Limits and rate limits are
 * lifted, so that the matrix's many records and calls are about access alone.
 */

const model = buildModel({
  ...publication,
  constants: {
    ...publication.constants,
    maxDraftsPerTeam: { value: 1_000_000 },
    apiRateLimitPerMinute: { value: 1_000_000 },
    apiRateLimitPerIpPerMinute: { value: 1_000_000 },
  },
});

/** The label of an article case of the matrix. */
const article = (author: string, team: string, state: string) => `[author: ${author}, team: ${team}, state: "${state}"]`;

forEachDatabase('permission matrix of the publication', (database) => {
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

  it('has writers and editors moved to another team, who may not touch a draft of their former team they wrote', () => {
    expect(fixtures.users.map((u) => u.persona.name)).toEqual([
      'admin',
      'editor',
      'writer',
      'no role',
      'admin+editor+writer',
      'editor moved to another team',
      'writer moved to another team',
      'visitor',
    ]);
    const cells = expectedMatrix(model, fixtures);
    // Their own draft, in the team they are in: theirs to read, edit and submit.
    expect(cells.get(`writer × article × read ${article('own', 'yours', 'draft')}`)).toBe('allowed');
    expect(cells.get(`writer × article × update ${article('own', 'yours', 'draft')}`)).toBe('allowed');
    expect(cells.get(`writer × article × submit ${article('own', 'yours', 'draft')}`)).toBe('allowed');
    // Their own draft in the team they left: as if it did not exist, for every door and action (writers delete nothing).
    expect(cells.get(`writer moved to another team × article × delete ${article('own', 'former', 'draft')}`)).toBe('forbidden');
    for (const action of ['read', 'update', 'submit']) {
      expect(cells.get(`writer moved to another team × article × ${action} ${article('own', 'former', 'draft')}`), action).toBe('hidden');
    }
    expect(cells.get(`editor moved to another team × article × publish ${article("another's", 'former', 'review')}`)).toBe('hidden');
    // Four eyes: an editor publishes another's article of their team, never their own.
    expect(cells.get(`editor × article × publish ${article("another's", 'yours', 'review')}`)).toBe('allowed');
    expect(cells.get(`editor × article × publish ${article('own', 'yours', 'review')}`)).toBe('notAllowed');
    // Editors read every published article, as the public does, but archive only their team's (their grant for it).
    expect(cells.get(`editor × article × archive ${article("another's", 'yours', 'published')}`)).toBe('allowed');
    expect(cells.get(`editor × article × archive ${article("another's", "another's", 'published')}`)).toBe('notAllowed');
    // Visitors read what is published, and take no transition.
    expect(cells.get(`visitor × article × read ${article("another's", "another's", 'published')}`)).toBe('allowed');
    expect(cells.get(`visitor × article × archive ${article("another's", "another's", 'published')}`)).toBe('forbidden');
  });

  it(
    'holds through ops: reads, writes, transitions and what every answer carries; a refusal changes nothing',
    async () => {
      const { result } = await captureLog(() => runMatrix(model, engine.store.db, fixtures, opsDoor(engine.ops)));
      expect(result.mismatches).toEqual([]);
      expect(result.outcomes.allowed).toBeGreaterThan(100);
      expect(result.outcomes.hidden).toBeGreaterThan(100);
    },
    MATRIX_TIMEOUT_MS,
  );

  it(
    'holds through the REST door, every answer as the OpenAPI document says',
    async () => {
      const { result } = await captureLog(() => runMatrix(model, engine.store.db, fixtures, restDoor(engine, api, tokens)));
      expect(result.mismatches).toEqual([]);
      expect(result.checks).toBeGreaterThan(1000);
    },
    MATRIX_TIMEOUT_MS,
  );
});
