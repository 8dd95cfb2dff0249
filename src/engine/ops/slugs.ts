import { sql } from 'kysely';
import { numberedSlug } from '../computed/slug-text';
import type { EntityModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { computedFields } from './computed';

/**
 * Slugs numbered so that each names one record: the first "roof-repair", the next "roof-repair-2".
 * Parallel writes of the same title take turns on a transaction-scoped advisory lock per slug
 * column, so the second sees the first's committed slug; the unique index on the column stays
 * the last word. `values` holds the base slugs (ops/computed.ts); `recordId` is the record
 * written (an update keeps clear of its own slug), null for a new one.
 */
export async function numberSlugs<V extends Readonly<Record<string, unknown>>>(
  trx: DynamicDatabase,
  entity: EntityModel,
  values: V,
  recordId: number | null,
): Promise<V> {
  let numbered: V = values;
  for (const field of computedFields(entity)) {
    const base = values[field.name];
    if (field.computed.kind !== 'slug' || typeof base !== 'string') continue;
    await sql`select pg_advisory_xact_lock(hashtext(${`ninefold slug ${entity.table}.${field.column}`}))`.execute(trx);
    // A slug holds letters, digits and "-" only: nothing a LIKE pattern would read as a wildcard.
    let query = trx
      .selectFrom(entity.table)
      .select(sql<string>`${sql.ref(field.column)}`.as('slug'))
      .where((eb) => eb.or([eb(field.column, '=', base), eb(field.column, 'like', `${base}-%`)]));
    if (recordId !== null) query = query.where('id', '<>', recordId);
    const taken = new Set((await query.execute()).map((row) => String(row.slug)));
    let n = 1;
    while (taken.has(numberedSlug(base, n))) n += 1;
    numbered = { ...numbered, [field.name]: numberedSlug(base, n) };
  }
  return numbered;
}
