import { NinefoldError, type FieldError } from '../errors/ninefold-error';
import { inSentence } from '../spec/naming';
import type { AppModel, EntityModel, FieldModel } from '../spec/model';
import type { DynamicDatabase } from '../store/types';
import { referencedEntity } from './declared';

/** "Contact must belong to the deal's company.": the refusal of a reference's `within`. */
export function withinMessage(entity: EntityModel, field: FieldModel): string {
  const shared = entity.fieldsByName[field.within!]!;
  return `${field.label} must belong to the ${inSentence(entity.label)}'s ${inSentence(shared.label)}.`;
}

/**
 * A reference with `within` (a deal's contact within the deal's company) must name a record
 * whose own field of that name equals the record's, when the record has one. Checked on the
 * record as it would be stored, for the references a write sets or whose `within` it moves (a
 * record left as it was is not refused for an old mismatch). The reference itself was checked
 * readable before (checkReferences), so its own field is read without the actor's scope.
 */
export async function checkWithin(
  model: AppModel,
  db: DynamicDatabase,
  entity: EntityModel,
  record: Readonly<Record<string, unknown>>,
  changed: ReadonlySet<string> | null,
): Promise<void> {
  const errors: FieldError[] = [];
  for (const field of entity.fields) {
    if (!field.within) continue;
    if (changed && !changed.has(field.name) && !changed.has(field.within)) continue;
    const chosen = record[field.name];
    const shared = record[field.within];
    if (typeof chosen !== 'number' || typeof shared !== 'number') continue;
    const target = referencedEntity(model, field);
    const column = target.fieldsByName[field.within]!.column;
    const row = await db.selectFrom(target.table).select(column).where('id', '=', chosen).executeTakeFirst();
    if (row && Number(row[column]) !== shared)
      errors.push({ field: field.name, code: 'not_within', message: withinMessage(entity, field) });
  }
  if (errors.length > 0) throw new NinefoldError('VALIDATION_FAILED', undefined, { fieldErrors: errors });
}
