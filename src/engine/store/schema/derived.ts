import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { literalPredicateSql, predicateColumn } from '../../condition/literal-sql';
import { conditionFields } from '../../condition/fields';
import { compiledOf } from '../../condition/book';
import type { DerivedModel } from '../../spec/derived';
import type { AppModel, EntityModel, FieldModel } from '../../spec/model';
import { declaredValue } from '../../spec/own-names';
import type { DynamicDatabase } from '../types';
import { META_TABLE } from './desired';
import { quoteIdent } from './sql';

/**
 * Derived fields (`derived` on a field: a count, sum, min, max or "exists" of the records that
 * reference it) are maintained columns of the parent table, so that lists sort, filter and page
 * by them over an index, with no query per row. They are kept by statement-level triggers on the
 * related table, like the tallies (tally.ts): every write of a related record — ops, create-many
 * and CSV import, calls, cascades and set-nulls of a deleted grandparent, the CLI — recomputes
 * them in its own transaction, and a rolled-back write takes its recount with it.
 *
 * A trigger recomputes (never increments) the values of the parents its statement touched: the
 * parent before and after a reference moved, and only when the reference, the folded field or a
 * field of `where` changed (editing a comment's text does not lock its ticket). Concurrency
 * under READ COMMITTED: it first locks those parents (FOR NO KEY UPDATE, which the foreign-key
 * checks' KEY SHARE does not block, in id order), then recounts in a second statement, whose
 * snapshot is taken after the lock was granted and so sees the related rows that writers it
 * waited for committed. The parent's version, updated_at and history are not touched: a
 * comment does not make an agent's open edit of the ticket stale. Live pages hear of it all the
 * same: the UPDATE fires the parent's own change-feed trigger (live/triggers.ts).
 *
 * Maintained column or indexed subquery: measured with bench/derived.ts on this shared 2-core
 * machine (PGlite, helpdesk, 1,000 tickets, 100,000 comments): the ticket list sorted by
 * -replyCount, 50 rows through ops.list, 42 ms (its keyset second page 14 ms), against 941 ms
 * for the same page by a correlated count per ticket; creating a comment through ops (the
 * recount in its transaction) 32 ms, an internal one 18 ms. The subquery grows with the table;
 * the column costs each related write one recount of the parents it touched.
 */
const META_KEY = 'derived';
const EVENTS = ['insert', 'update', 'delete', 'truncate'] as const;
const triggerName = (event: (typeof EVENTS)[number]) => `nf_derived_${event}`;
const functionName = (table: string) => quoteIdent(`nf_derived_${table}`);

/** A derived field with its parent: what one trigger keeps. */
interface Kept {
  readonly parent: EntityModel;
  readonly field: FieldModel;
  readonly derived: DerivedModel;
}

/** Every derived field of the model, grouped by the related entity whose writes change them. */
function keptByRelated(model: AppModel): Map<string, Kept[]> {
  const byRelated = new Map<string, Kept[]>();
  for (const parent of model.entities)
    for (const field of parent.fields) {
      const derived = field.derived;
      // A model without the related entity (one narrowed by hand, as the sync's refusals are tested) keeps nothing of it.
      if (!derived || !Object.hasOwn(model.entitiesByName, derived.entity)) continue;
      byRelated.set(derived.entity, [...(byRelated.get(derived.entity) ?? []), { parent, field, derived }]);
    }
  return byRelated;
}

/** The value of one derived field for the parent row `p`, folded over the related rows `c` (as SQL). */
export function derivedValueSql(model: AppModel, related: EntityModel, derived: DerivedModel): string {
  const via = quoteIdent(declaredValue(related.fieldsByName, derived.via, 'field').column);
  const where = derived.where === null ? '' : ` and ${literalPredicateSql(related, compiledOf(model, derived.where))}`;
  const rows = `from ${quoteIdent(related.table)} c where c.${via} = p.id${where}`;
  const folded = derived.field === null ? '' : `c.${quoteIdent(declaredValue(related.fieldsByName, derived.field, 'field').column)}`;
  switch (derived.kind) {
    case 'count':
      return `(select count(*) ${rows})`;
    case 'exists':
      return `exists (select 1 ${rows})`;
    case 'sum':
      // Over no rows a sum is 0, not empty.
      return `(select coalesce(sum(${folded}), 0) ${rows})`;
    case 'min':
    case 'max':
      return `(select ${derived.kind}(${folded}) ${rows})`;
  }
}

/** The related record's columns a derived value reads besides its reference: the folded field and `where`'s fields. */
function readColumns(model: AppModel, related: EntityModel, derived: DerivedModel): string[] {
  const names = [
    ...(derived.field === null ? [] : [derived.field]),
    ...(derived.where === null ? [] : conditionFields(compiledOf(model, derived.where), { paths: 'none', operands: false })),
  ];
  return names.map((name) => predicateColumn(related, name));
}

/**
 * Recounts the derived fields of `parent` that `kept` lists, for the parents `ids` (an SQL array
 * expression) or, without, all of them: only the rows whose values change are written.
 */
function recount(model: AppModel, parent: EntityModel, related: EntityModel, kept: readonly Kept[], ids: string | null): string {
  const columns = kept.map((k) => quoteIdent(k.field.column));
  const values = kept.map((k, i) => `${derivedValueSql(model, related, k.derived)} as v${i}`);
  const fresh = kept.map((_k, i) => `s.v${i}`);
  const only = ids === null ? '' : ` where p.id = any(${ids})`;
  // One-column row constructors need ROW(): `(a) = (b)` is not a row assignment.
  return `update ${quoteIdent(parent.table)} t set (${columns.join(', ')}) = row(${fresh.join(', ')})
    from (select p.id, ${values.join(', ')} from ${quoteIdent(parent.table)} p${only}) s
    where t.id = s.id and row(${columns.map((c) => `t.${c}`).join(', ')}) is distinct from row(${fresh.join(', ')})`;
}

/** The statements of one related table's trigger body for one parent entity (all its fields kept through one reference). */
function parentBlock(model: AppModel, related: EntityModel, parent: EntityModel, via: string, kept: readonly Kept[]): string {
  const ref = quoteIdent(declaredValue(related.fieldsByName, via, 'field').column);
  const watched = [ref, ...new Set(kept.flatMap((k) => readColumns(model, related, k.derived)).map(quoteIdent))];
  const changed = `select o.${ref} as a, n.${ref} as b from old_rows o join new_rows n on n.id = o.id
        where row(${watched.map((c) => `o.${c}`).join(', ')}) is distinct from row(${watched.map((c) => `n.${c}`).join(', ')})`;
  const table = quoteIdent(parent.table);
  return `
  if tg_op = 'TRUNCATE' then
    ${recount(model, parent, related, kept, null)};
  else
    if tg_op = 'INSERT' then
      select array_agg(distinct x.id order by x.id) into ids from (select r.${ref} as id from new_rows r) x where x.id is not null;
    elsif tg_op = 'DELETE' then
      select array_agg(distinct x.id order by x.id) into ids from (select r.${ref} as id from old_rows r) x where x.id is not null;
    else
      select array_agg(distinct x.id order by x.id) into ids
        from (select c.a as id from (${changed}) c union all select c.b from (${changed}) c) x where x.id is not null;
    end if;
    if ids is not null then
      perform 1 from ${table} where id = any(ids) order by id for no key update;
      ${recount(model, parent, related, kept, 'ids')};
    end if;
  end if;`;
}

function triggerStatements(model: AppModel, relatedName: string, kept: readonly Kept[]): string[] {
  const related = declaredValue(model.entitiesByName, relatedName, 'entity');
  const groups = new Map<string, Kept[]>();
  for (const k of kept) {
    const key = JSON.stringify([k.parent.name, k.derived.via]);
    groups.set(key, [...(groups.get(key) ?? []), k]);
  }
  const blocks = [...groups.values()].flatMap((group) => {
    const first = group[0];
    return first ? [parentBlock(model, related, first.parent, first.derived.via, group)] : [];
  });
  const body = `declare
  ids bigint[];
begin${blocks.join('\n')}
  return null;
end`;
  const table = quoteIdent(related.table);
  const fn = functionName(related.table);
  return [
    `create or replace function ${fn}() returns trigger language plpgsql as $nf$${body}$nf$`,
    `create trigger ${triggerName('insert')} after insert on ${table} referencing new table as new_rows for each statement execute function ${fn}()`,
    `create trigger ${triggerName('update')} after update on ${table} referencing old table as old_rows new table as new_rows for each statement execute function ${fn}()`,
    `create trigger ${triggerName('delete')} after delete on ${table} referencing old table as old_rows for each statement execute function ${fn}()`,
    `create trigger ${triggerName('truncate')} after truncate on ${table} for each statement execute function ${fn}()`,
  ];
}

/** Every parent's derived values recounted from the rows (a new or changed derived field on a table with data). */
function backfillStatements(model: AppModel): string[] {
  return [...keptByRelated(model)].flatMap(([relatedName, kept]) => {
    const related = declaredValue(model.entitiesByName, relatedName, 'entity');
    const byParent = new Map<EntityModel, Kept[]>();
    for (const k of kept) byParent.set(k.parent, [...(byParent.get(k.parent) ?? []), k]);
    return [...byParent].map(([parent, group]) => recount(model, parent, related, group, null));
  });
}

function derivedStatements(model: AppModel): string[] {
  return [...keptByRelated(model)].flatMap(([related, kept]) => triggerStatements(model, related, kept));
}

/** What the derived fields' triggers are, as a hash: part of the schema's recorded fingerprint. */
export function derivedFingerprint(model: AppModel): string {
  return createHash('sha256')
    .update(JSON.stringify(derivedStatements(model)))
    .digest('hex');
}

/**
 * Installs the triggers (dropping those of tables no longer related) and recounts every derived
 * value when what is derived changed, with the entity tables locked against writes. Runs inside
 * the schema sync's transaction, after the columns it fills.
 */
export async function installDerived(trx: DynamicDatabase, model: AppModel): Promise<boolean> {
  const fingerprint = derivedFingerprint(model);
  const { rows } = await sql<{ recorded: string | null }>`
    select value->>'fingerprint' as recorded from ${sql.table(META_TABLE)} where key = ${META_KEY}`.execute(trx);
  const previous = rows[0]?.recorded;
  const kept = keptByRelated(model);
  const relatedTables = [...kept.keys()].map((name) => declaredValue(model.entitiesByName, name, 'entity').table);
  if (previous === fingerprint && (await triggersPresent(trx, relatedTables))) return false;
  for (const entity of model.entities) {
    await sql.raw(`lock table ${quoteIdent(entity.table)} in share row exclusive mode`).execute(trx);
    for (const event of EVENTS) await sql.raw(`drop trigger if exists ${triggerName(event)} on ${quoteIdent(entity.table)}`).execute(trx);
  }
  for (const statement of derivedStatements(model)) await sql.raw(statement).execute(trx);
  for (const statement of backfillStatements(model)) await sql.raw(statement).execute(trx);
  await trx
    .insertInto(META_TABLE)
    .values({ key: META_KEY, value: JSON.stringify({ fingerprint }) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql.ref('excluded.value') }))
    .execute();
  return true;
}

/** Every related table still has its trigger (a table recreated loses it). */
async function triggersPresent(db: DynamicDatabase, tables: readonly string[]): Promise<boolean> {
  if (tables.length === 0) return true;
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where t.tgname = ${triggerName('insert')} and c.relname = any(${sql.val(tables)}::text[])`.execute(db);
  return Number(rows[0]?.n) === tables.length;
}
