import { computeValue, type ComputedFieldModel } from '../../computed/evaluate';
import { numberedSlug } from '../../computed/slug-text';
import type { AppModel, EntityModel } from '../../spec/model';
import type { DynamicDatabase } from '../types';
import type { SchemaStep } from './types';

const ROWS_PER_READ = 500;

/**
 * A computed field added to a spec whose table already has rows: the sync that adds its column
 * fills it for them, in the same transaction, from each row's stored fields, as ops would have
 * written it (slugs numbered in id order, the oldest record keeping the plain one). A computed
 * value that does not fit its column is left empty rather than stopping the sync.
 */
export async function backfillComputedColumns(db: DynamicDatabase, model: AppModel, applied: readonly SchemaStep[]): Promise<void> {
  for (const step of applied) {
    if (step.kind !== 'add-column' || step.column === undefined) continue;
    const entity = model.entities.find((e) => e.table === step.table);
    const field = entity?.fields.find((f): f is ComputedFieldModel => f.column === step.column && f.computed !== undefined);
    if (entity && field) await backfillColumn(db, entity, field);
  }
}

async function backfillColumn(db: DynamicDatabase, entity: EntityModel, field: ComputedFieldModel): Promise<void> {
  const inputs = field.computed.inputs.map((name) => entity.fieldsByName[name]).filter((f) => f !== undefined);
  const slugsTaken = new Set<string>();
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom(entity.table)
      .select(['id', ...inputs.map((f) => f.column)])
      .where('id', '>', after)
      .orderBy('id')
      .limit(ROWS_PER_READ)
      .execute();
    for (const row of rows) {
      const record = Object.fromEntries(inputs.map((f) => [f.name, row[f.column]]));
      let value = valueOrEmpty(field, record);
      if (field.computed.kind === 'slug' && typeof value === 'string') {
        let n = 1;
        while (slugsTaken.has(numberedSlug(value, n))) n += 1;
        value = numberedSlug(value, n);
        slugsTaken.add(value);
      }
      if (value !== null)
        await db
          .updateTable(entity.table)
          .set({ [field.column]: value })
          .where('id', '=', row.id as number)
          .execute();
    }
    const last = rows.at(-1);
    if (!last || rows.length < ROWS_PER_READ) return;
    after = Number(last.id);
  }
}

function valueOrEmpty(field: ComputedFieldModel, record: Readonly<Record<string, unknown>>): ReturnType<typeof computeValue> {
  try {
    return computeValue(field, record);
  } catch {
    return null;
  }
}
