import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { policyOf } from '../../access/policy';
import type { AppModel, EntityModel } from '../../spec/model';
import { declaredWidgets } from '../../spec/screens/home';
import type { DynamicDatabase } from '../types';
import { META_TABLE, TALLY_TABLE } from './desired';
import { quoteIdent, quoteLiteral } from './sql';

/**
 * Running totals of records per value of a field (and per day of a datetime field), so that the
 * home's numbers are a few index lookups instead of counting a million rows per request.
 *
 * They are kept by statement-level triggers on each entity table, so every write — ops, bulk
 * seeding, a rollback (the tally's rows roll back with the write), a TRUNCATE — keeps them
 * right in the same transaction, and a statement that leaves a tallied value unchanged touches
 * no tally row (no lock, no contention). Rows are kept for every record (owner 0) and, for each
 * user field that a role's list scope is exactly `{ own: field }`, per owner: a customer's home
 * reads only their own totals.
 */
export { TALLY_TABLE };
/** The dimension of the record count itself. */
export const TALLY_TOTAL = '*';
/** The owner field of the totals over every record. */
export const TALLY_EVERYONE = '';
const META_KEY = 'tally';

/** A dimension of per-day counts of a datetime field: "createdAt@day". */
export const dayDimension = (field: string) => `${field}@day`;

/** What is tallied for one entity. */
export interface EntityTally {
  readonly entity: string;
  /** Fields counted per value, each with the numeric fields also summed per value. */
  readonly groups: ReadonlyMap<string, ReadonlySet<string>>;
  /** Datetime fields counted per day (UTC). */
  readonly days: ReadonlySet<string>;
  /** User fields of simple `{ own }` list scopes: totals are also kept per owner. */
  readonly owners: ReadonlySet<string>;
}

/**
 * The tallies the spec needs: for every entity its count and counts per state (the default
 * home), and what the widgets without a `where` of the home and of dashboard routes show.
 */
export function tallyPlan(model: AppModel): EntityTally[] {
  const widgets = declaredWidgets(model).filter((w) => w.kind === 'chart' || w.where === null);
  return model.entities.map((entity) => {
    const groups = new Map<string, Set<string>>();
    const group = (name: string) => groups.get(name) ?? groups.set(name, new Set()).get(name)!;
    if (entity.workflow) group(entity.workflow.field);
    const days = new Set<string>();
    for (const widget of widgets) {
      if (widget.entity !== entity.name) continue;
      if (widget.kind === 'counts') {
        const sums = group(widget.by);
        if (widget.sum) sums.add(widget.sum);
      } else if (widget.kind === 'chart') for (const s of widget.series) days.add(s.field);
    }
    return { entity: entity.name, groups, days, owners: policyOf(entity).ownListFields };
  });
}

/** The entity of a tally (made from the model's own entities). */
function tallied(model: AppModel, tally: EntityTally): EntityModel {
  const entity = model.entitiesByName[tally.entity];
  if (!entity) throw new Error(`A tally of "${tally.entity}", which the model does not declare`);
  return entity;
}

/** The SQL column of a field, a system column or the state field. */
function columnOf(entity: EntityModel, name: string): string {
  if (entity.workflow && name === entity.workflow.field) return quoteIdent(entity.workflow.column);
  const column = entity.fieldsByName[name]?.column ?? entity.systemColumns.find((c) => c.name === name)?.column;
  if (!column) throw new Error(`${entity.name} has no column for "${name}"`);
  return quoteIdent(column);
}

/**
 * One SELECT of the tally rows that the records of `rows` (a table or a transition table) add,
 * times `sign`: a single pass over the rows, each expanded into its tally entries.
 */
function contributions(model: AppModel, tally: EntityTally, rows: string, sign: 1 | -1): string {
  const entity = tallied(model, tally);
  const owners = [
    `(${quoteLiteral(TALLY_EVERYONE)}, 0::bigint)`,
    ...[...tally.owners].map((f) => `(${quoteLiteral(f)}, coalesce(r.${columnOf(entity, f)}, 0))`),
  ];
  const entries: string[] = [`(${quoteLiteral(TALLY_TOTAL)}, '', '', ${sign}::numeric)`];
  for (const [name, sums] of tally.groups) {
    const value = `coalesce(r.${columnOf(entity, name)}::text, '')`;
    entries.push(`(${quoteLiteral(name)}, ${value}, '', ${sign}::numeric)`);
    for (const sum of sums)
      entries.push(`(${quoteLiteral(name)}, ${value}, ${quoteLiteral(sum)}, ${sign} * coalesce(r.${columnOf(entity, sum)}, 0)::numeric)`);
  }
  for (const name of tally.days) {
    // A record without the time is on no day: its entry is dropped below.
    entries.push(
      `(${quoteLiteral(dayDimension(name))}, to_char(r.${columnOf(entity, name)} at time zone 'UTC', 'YYYY-MM-DD'), '', ${sign}::numeric)`,
    );
  }
  return `select o.owner_field, o.owner, e.dimension, e.value, e.measure, e.amount
    from ${rows} r
    cross join lateral (values ${owners.join(', ')}) o(owner_field, owner)
    cross join lateral (values ${entries.join(', ')}) e(dimension, value, measure, amount)
    where e.value is not null`;
}

/** Adds the contributions to the tally, in key order (so that concurrent writers lock rows in the same order). */
function upsert(entityName: string, selects: readonly string[]): string {
  return `insert into ${TALLY_TABLE} as t (entity, owner_field, owner, dimension, value, measure, amount)
    select ${quoteLiteral(entityName)}, c.owner_field, c.owner, c.dimension, c.value, c.measure, sum(c.amount)
    from (${selects.join(' union all ')}) c
    group by c.owner_field, c.owner, c.dimension, c.value, c.measure
    having sum(c.amount) <> 0
    order by c.owner_field, c.owner, c.dimension, c.value, c.measure
    on conflict (entity, owner_field, owner, dimension, value, measure) do update set amount = t.amount + excluded.amount`;
}

const functionName = (entity: EntityModel) => quoteIdent(`nf_tally_${entity.table}`);
const TRIGGERS = ['insert', 'update', 'delete', 'truncate'] as const;
const triggerName = (event: (typeof TRIGGERS)[number]) => `nf_tally_${event}`;

function triggerStatements(model: AppModel, tally: EntityTally): string[] {
  const entity = tallied(model, tally);
  const table = quoteIdent(entity.table);
  const body = `begin
  if tg_op = 'INSERT' then
    ${upsert(entity.name, [contributions(model, tally, 'new_rows', 1)])};
  elsif tg_op = 'UPDATE' then
    ${upsert(entity.name, [contributions(model, tally, 'old_rows', -1), contributions(model, tally, 'new_rows', 1)])};
  elsif tg_op = 'DELETE' then
    ${upsert(entity.name, [contributions(model, tally, 'old_rows', -1)])};
  else
    delete from ${TALLY_TABLE} where entity = ${quoteLiteral(entity.name)};
  end if;
  return null;
end`;
  return [
    ...TRIGGERS.map((event) => `drop trigger if exists ${triggerName(event)} on ${table}`),
    `create or replace function ${functionName(entity)}() returns trigger language plpgsql as $nf$${body}$nf$`,
    `create trigger ${triggerName('insert')} after insert on ${table} referencing new table as new_rows for each statement execute function ${functionName(entity)}()`,
    `create trigger ${triggerName('update')} after update on ${table} referencing old table as old_rows new table as new_rows for each statement execute function ${functionName(entity)}()`,
    `create trigger ${triggerName('delete')} after delete on ${table} referencing old table as old_rows for each statement execute function ${functionName(entity)}()`,
    `create trigger ${triggerName('truncate')} after truncate on ${table} for each statement execute function ${functionName(entity)}()`,
    `delete from ${TALLY_TABLE} where entity = ${quoteLiteral(entity.name)}`,
    upsert(entity.name, [contributions(model, tally, table, 1)]),
  ];
}

/** What the tallies' triggers are, as a hash: part of the schema's recorded fingerprint. */
export function tallyFingerprint(model: AppModel): string {
  return createHash('sha256')
    .update(JSON.stringify(tallyStatements(model)))
    .digest('hex');
}

function tallyStatements(model: AppModel): string[] {
  return tallyPlan(model).flatMap((t) => triggerStatements(model, t));
}

/**
 * Installs the triggers and recounts the tallies from the rows when what is tallied changed (or
 * a table lost its triggers), with the entity tables locked against writes. Runs inside the
 * schema sync's transaction, after the tables it needs, so both are recorded together.
 */
export async function installTallies(trx: DynamicDatabase, model: AppModel): Promise<boolean> {
  const fingerprint = tallyFingerprint(model);
  const tables = model.entities.map((e) => e.table);
  if (await isCurrent(trx, fingerprint, tables)) return false;
  for (const table of tables) await sql.raw(`lock table ${quoteIdent(table)} in share row exclusive mode`).execute(trx);
  const names = model.entities.map((e) => quoteLiteral(e.name));
  await sql.raw(`delete from ${TALLY_TABLE}${names.length > 0 ? ` where entity not in (${names.join(', ')})` : ''}`).execute(trx);
  for (const statement of tallyStatements(model)) await sql.raw(statement).execute(trx);
  await trx
    .insertInto(META_TABLE)
    .values({ key: META_KEY, value: JSON.stringify({ fingerprint }) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql.ref('excluded.value') }))
    .execute();
  return true;
}

/** The recorded fingerprint matches and every entity table still has its triggers (a table recreated loses them). */
async function isCurrent(db: DynamicDatabase, fingerprint: string, tables: readonly string[]): Promise<boolean> {
  const { rows } = await sql<{ recorded: string | null; triggers: string }>`
    select (select value->>'fingerprint' from ${sql.table(META_TABLE)} where key = ${META_KEY}) as recorded,
           (select count(*) from pg_trigger t join pg_class c on c.oid = t.tgrelid
             where t.tgname = ${triggerName('insert')} and c.relname = any(${sql.val(tables)}::text[])) as triggers`.execute(db);
  const row = rows[0];
  return row?.recorded === fingerprint && Number(row.triggers) === tables.length;
}
