import { NinefoldError } from '../errors/ninefold-error';
import type { AppModel, EntityModel, FieldModel } from '../spec/model';
import { endsBeforeStart, exclusiveOfBadRange, exclusiveOfConstraint, exclusiveViolation } from './exclusive';
import { uniqueWhenOfIndex, uniqueWhenViolation } from './unique-when';
import { inSentence } from '../spec/naming';

interface PostgresErrorFields {
  code?: string;
  detail?: string;
  constraint?: string;
}

/**
 * VALIDATION_FAILED for a value (or combination of values) of `fields` that another record
 * already has; without fields, on the entity's first unique field. `also` ends each message
 * (an import says which other row of the file has it).
 */
export function uniqueViolation(entity: EntityModel, fields: readonly FieldModel[], also = ''): NinefoldError {
  const targets = fields.length ? fields : entity.fields.filter((f) => f.unique).slice(0, 1);
  return new NinefoldError('VALIDATION_FAILED', undefined, {
    fieldErrors: targets.map((f) => ({
      field: f.name,
      code: 'unique',
      message:
        (f.spec.messages?.unique ??
          (fields.length > 1
            ? `This combination of ${fields.map((x) => x.label).join(', ')} is already used.`
            : `This ${inSentence(f.label)} is already used.`)) + also,
    })),
  });
}

/**
 * Maps a database error that a user can cause to a catalogue error; returns the original error
 * otherwise (it is then an internal error, never shown).
 */
export function translateDatabaseError(model: AppModel, entity: EntityModel, error: unknown): unknown {
  const e = error as PostgresErrorFields;
  // 23P01 exclusion_violation: an `exclusive` rule's constraint refused the loser of a race.
  const exclusive = e?.code === '23P01' ? exclusiveOfConstraint(entity, e.constraint) : undefined;
  if (exclusive) return exclusiveViolation(exclusive);
  const badRange = e?.code === '22000' ? exclusiveOfBadRange(entity, (error as Error).message) : undefined;
  if (badRange) return endsBeforeStart(entity, badRange);
  if (e?.code === '23505') {
    // A uniqueWhen's partial index refused the loser of a race: the rule's own message.
    const rule = uniqueWhenOfIndex(entity, e.constraint);
    if (rule) return uniqueWhenViolation(model.errors, rule);
    // detail: Key (name)=(Acme) already exists.  — the columns tell which fields collide.
    const columns =
      /Key \(([^)]+)\)=/
        .exec(e.detail ?? '')?.[1]
        ?.split(',')
        .map((c) => c.trim().replace(/"/g, '')) ?? [];
    return uniqueViolation(
      entity,
      entity.fields.filter((f) => columns.includes(f.column)),
    );
  }
  // 23503 foreign_key_violation; 23001 restrict_violation, what an ON DELETE RESTRICT key raises.
  if (e?.code === '23503' || e?.code === '23001') {
    // detail: Key (organization)=(7) is not present in table "organization".  — a write that
    // refers to a record deleted since its references were checked.
    const missing = /^Key \(([^)]+)\)=\(.*\) is not present in table/.exec(e.detail ?? '')?.[1]?.replace(/"/g, '');
    const field = missing ? entity.fields.find((f) => f.column === missing) : undefined;
    if (field) {
      return new NinefoldError('VALIDATION_FAILED', undefined, {
        fieldErrors: [{ field: field.name, code: 'unknown_reference', message: `${field.label}: this record no longer exists.` }],
      });
    }
    return new NinefoldError('CONFLICT', `This ${inSentence(entity.label)} is still referred to by other records; remove those first.`);
  }
  return error;
}
