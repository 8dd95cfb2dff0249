import type { AppModel, EntityModel, ExclusiveModel } from '../../spec/model';
import { exclusiveConstraintPrefix } from '../../spec/exclusive';
import { exclusiveText } from '../../spec/describe/exclusive';
import { literalPredicateSql, predicateColumn } from '../../condition/literal-sql';
import { quoteIdent } from './sql';
import type { CatalogueTable, ExclusionDef, SchemaStep, TableDef } from './types';

/**
 * `exclusive` kept by the database: one exclusion constraint per rule, so that two writers racing
 * cannot both place overlapping ranges (ops checks first to answer with the spec's message; the
 * constraint refuses whoever loses a race, and db-errors.ts maps that to the same refusal).
 * Equal keys in a GiST index need the btree_gist extension: PGlite loads it in its worker
 * (store/pglite/worker.mjs), PostgreSQL creates it with the constraint (trusted since PG 13, so
 * a database owner may).
 */
export function exclusionConstraints(model: AppModel, entity: EntityModel): ExclusionDef[] {
  return entity.exclusive.map((rule) => ({
    name: rule.constraint,
    keys: rule.per.map((name) => predicateColumn(entity, name)),
    rangeType: rule.rangeType,
    start: predicateColumn(entity, rule.start),
    end: predicateColumn(entity, rule.end),
    where: exclusionPredicate(model, entity, rule),
    rule: `${entity.label} (${entity.name}): ${exclusiveText(entity, rule)}`,
  }));
}

/**
 * The rows a rule holds: those its condition selects, with a start (an empty start takes no time;
 * an empty end is open-ended, which the range itself says).
 */
function exclusionPredicate(model: AppModel, entity: EntityModel, rule: ExclusiveModel): string {
  const started = `${quoteIdent(predicateColumn(entity, rule.start))} is not null`;
  return rule.where ? `(${literalPredicateSql(entity, model.conditions.of(rule.where))}) and ${started}` : started;
}

/** `tstzrange("starts_at", "ends_at", '[)')`: half-open, so touching ranges do not overlap. */
export function exclusiveRangeSql(rangeType: ExclusionDef['rangeType'], start: string, end: string): string {
  return `${rangeType}(${start}, ${end}, '[)')`;
}

function exclusionSql(def: ExclusionDef): string {
  const parts = [
    ...def.keys.map((key) => `${quoteIdent(key)} with =`),
    `${exclusiveRangeSql(def.rangeType, quoteIdent(def.start), quoteIdent(def.end))} with &&`,
  ];
  return `constraint ${quoteIdent(def.name)} exclude using gist (${parts.join(', ')}) where (${def.where})`;
}

/** The SQL that makes btree_gist's `=` available, and says why it is there. */
const BTREE_GIST_SQL = 'create extension if not exists btree_gist';

/**
 * The steps that bring a table's exclusion constraints in line: add the missing (their names
 * carry every detail, so a known name matches) and drop the engine's own that the spec no longer
 * has (they hold no data). `existing` is undefined for a table created in the same plan.
 */
export function planExclusions(
  table: TableDef,
  existing: CatalogueTable | undefined,
  phases: { readonly add: number; readonly drop: number },
): SchemaStep[] {
  const desired = table.exclusions ?? [];
  const current = existing?.constraints.filter((c) => c.kind === 'exclusion') ?? [];
  const steps: SchemaStep[] = [];
  for (const def of desired) {
    if (current.some((c) => c.name === def.name)) continue;
    steps.push({
      kind: 'add-exclusion',
      table: table.name,
      phase: phases.add,
      description: `add exclusion constraint ${def.name} on ${table.name} (${def.rule})`,
      sql: [...(def.keys.length > 0 ? [BTREE_GIST_SQL] : []), `alter table ${quoteIdent(table.name)} add ${exclusionSql(def)}`],
      column: def.start,
      exclusiveRule: def.rule,
    });
  }
  const prefix = exclusiveConstraintPrefix(table.name);
  for (const constraint of current) {
    if (!constraint.name.startsWith(prefix) || desired.some((d) => d.name === constraint.name)) continue;
    steps.push({
      kind: 'drop-exclusion',
      table: table.name,
      phase: phases.drop,
      description: `drop exclusion constraint ${constraint.name} on ${table.name} (no longer in the spec, or changed)`,
      sql: [`alter table ${quoteIdent(table.name)} drop constraint ${quoteIdent(constraint.name)}`],
    });
  }
  return steps;
}

/**
 * What to say when adding an exclusion constraint failed for a reason the spec's author can act
 * on, in the rule's words; null for any other failure. 23P01: rows already there overlap (the
 * detail names two of them); 22000: a row ends before it starts, which no range can hold;
 * 42501 (or an extension the server lacks): btree_gist could not be created.
 */
export function exclusionStepFailure(step: SchemaStep, error: unknown): string | null {
  if (!step.exclusiveRule) return null;
  const { code, detail, message } = error as { code?: unknown; detail?: unknown; message?: unknown };
  const rule = `the rule "${step.exclusiveRule}"`;
  if (code === '23P01') {
    const pair = typeof detail === 'string' ? /=\((.*)\) conflicts with (?:existing )?key \(.*\)=\((.*)\)\.?$/.exec(detail) : null;
    return [
      `Records already in ${step.table} overlap, which breaks ${rule}`,
      pair ? ` (for example ${pair[1]} and ${pair[2]})` : '',
      ', so its exclusion constraint could not be added. Change those records (or the rule) and start again. Nothing was changed.',
    ].join('');
  }
  if (code === '22000') {
    return `A record already in ${step.table} ends before it starts, which no range can hold, so the exclusion constraint of ${rule} could not be added. Correct that record and start again. Nothing was changed.`;
  }
  const extension = typeof message === 'string' && message.includes('btree_gist');
  if (code === '42501' || ((code === '58P01' || code === '0A000' || code === '42704') && extension)) {
    return `${rule.charAt(0).toUpperCase()}${rule.slice(1)} needs PostgreSQL's btree_gist extension, which this database user could not create (${String(message)}). Ask the database's owner to run "create extension btree_gist" in it, then start again. Nothing was changed.`;
  }
  return null;
}
