import { describe, expect, it } from 'vitest';
import { exclusionStepFailure, planExclusions } from './exclusive-constraints';
import type { CatalogueTable, ExclusionDef, SchemaStep, TableDef } from './types';

const RULE = "Visit (visit): A technician's visits never overlap (Starts at to Ends at)";
const def = (name: string, keys: string[] = ['technician']): ExclusionDef => ({
  name,
  keys,
  rangeType: 'tstzrange',
  start: 'starts_at',
  end: 'ends_at',
  where: 'starts_at is not null',
  rule: RULE,
});
const table = (exclusions: ExclusionDef[]): TableDef => ({
  name: 'visit',
  entity: 'visit',
  columns: [],
  primaryKey: ['id'],
  uniques: [],
  foreignKeys: [],
  indexes: [],
  exclusions,
});
const catalogue = (names: string[]): CatalogueTable => ({
  name: 'visit',
  columns: [],
  constraints: names.map((name) => ({ name, kind: 'exclusion' as const, columns: [] })),
  indexes: [],
});
const PHASES = { add: 9, drop: 0 };

describe('planExclusions', () => {
  it('adds a missing constraint, creating btree_gist first only when there is a key to compare with =', () => {
    const [keyed, keyless] = [
      planExclusions(table([def('visit_ex_a')]), undefined, PHASES),
      planExclusions(table([def('visit_ex_b', [])]), undefined, PHASES),
    ];
    expect(keyed).toEqual([
      expect.objectContaining({
        kind: 'add-exclusion',
        phase: 9,
        exclusiveRule: RULE,
        sql: [
          'create extension if not exists btree_gist',
          `alter table "visit" add constraint "visit_ex_a" exclude using gist ("technician" with =, tstzrange("starts_at", "ends_at", '[)') with &&) where (starts_at is not null)`,
        ],
      }),
    ]);
    expect(keyless[0]!.sql).toEqual([
      `alter table "visit" add constraint "visit_ex_b" exclude using gist (tstzrange("starts_at", "ends_at", '[)') with &&) where (starts_at is not null)`,
    ]);
  });

  it("keeps a known one, drops its own that the spec no longer has, and leaves anyone else's alone", () => {
    const steps = planExclusions(table([def('visit_ex_a')]), catalogue(['visit_ex_a', 'visit_ex_old', 'visit_by_hand']), PHASES);
    expect(steps).toEqual([
      expect.objectContaining({ kind: 'drop-exclusion', phase: 0, sql: ['alter table "visit" drop constraint "visit_ex_old"'] }),
    ]);
  });
});

describe('exclusionStepFailure', () => {
  const step = { kind: 'add-exclusion', table: 'visit', phase: 9, description: 'add', sql: [], exclusiveRule: RULE } satisfies SchemaStep;

  it('names the rule and two overlapping rows, a row ending before its start, or the missing extension', () => {
    const overlapping = exclusionStepFailure(step, {
      code: '23P01',
      detail: `Key (technician, tstzrange(starts_at, ends_at, '[)'::text))=(1, ["2026-01-05 09:00:00+00","2026-01-05 10:00:00+00")) conflicts with key (technician, tstzrange(starts_at, ends_at, '[)'::text))=(1, ["2026-01-05 09:30:00+00","2026-01-05 11:00:00+00")).`,
    });
    expect(overlapping).toBe(
      `Records already in visit overlap, which breaks the rule "${RULE}" (for example 1, ["2026-01-05 09:00:00+00","2026-01-05 10:00:00+00") and 1, ["2026-01-05 09:30:00+00","2026-01-05 11:00:00+00")), so its exclusion constraint could not be added. Change those records (or the rule) and start again. Nothing was changed.`,
    );
    expect(exclusionStepFailure(step, { code: '22000' })).toMatch(/^A record already in visit ends before it starts/);
    expect(exclusionStepFailure(step, { code: '42501', message: 'permission denied to create extension "btree_gist"' })).toMatch(
      /^The rule ".*" needs PostgreSQL's btree_gist extension, which this database user could not create \(permission denied to create extension "btree_gist"\)\. Ask the database's owner to run "create extension btree_gist" in it/,
    );
  });

  it('leaves other failures, and other steps, to the generic message', () => {
    expect(exclusionStepFailure(step, { code: '42P01' })).toBeNull();
    expect(exclusionStepFailure({ ...step, exclusiveRule: undefined }, { code: '23P01' })).toBeNull();
  });
});
