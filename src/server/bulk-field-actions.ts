import type { Engine } from '@/engine/engine';
import type { EntityAccess } from '@/engine/access/entity-access';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import type { BulkUpdateResult } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel, FieldModel } from '@/engine/spec/model';
import { isBulkSettable } from '@/engine/ops/bulk';
import { BULK_CLEAR_VALUE, BULK_SET_PREFIX, bulkChoiceValue, type BulkActionState, type BulkOutcome } from '@/ui/record/bulk-action-state';
import { enumLabel, formatBoolean } from '@/ui/format';
import { entityNamed } from './entity-named';
import { readFormInput } from './forms';
import { postedText, readSelection, refusedRows, rowCount } from './bulk-rows';

/*
 * "Set <field>" on the rows selected in a list, without Next.js (the server action is
 * src/server/actions/bulk-actions.ts): one value for one field, written on every row through
 * ops.bulkUpdate, each row its own update with the version the user saw. Which fields may be
 * written is ops' to say: the panel offers those access lists as writable, and a field posted
 * anyway that the actor may not write is refused by ops for the whole submission.
 *
 * The value is chosen, never assumed: an empty input means nothing was chosen (refused, nothing
 * changed); emptying an optional field on every row is its own choice (BULK_CLEAR_VALUE).
 */

/** The fields "Set <field>" offers the actor: those of a settable kind that access says they may update. */
export function settableFields(entity: EntityModel, access: EntityAccess): FieldModel[] {
  const writable = new Set(access.writable.update);
  return entity.fields.filter((field) => isBulkSettable(entity, field) && writable.has(field.name));
}

export async function submitBulkSet(
  engine: Engine,
  actor: Actor,
  entityName: string,
  fieldName: string,
  state: BulkActionState,
  formData: FormData,
  /** The viewer's zone: a date-time typed in the panel is a wall time in it. */
  zone: string,
): Promise<BulkActionState> {
  const entity = entityNamed(engine, entityName);
  const inputName = `${BULK_SET_PREFIX}${fieldName}`;
  const raw = postedText(formData, inputName);
  const values = { choice: bulkChoiceValue({ kind: 'set', field: fieldName }), set: { [inputName]: raw } };
  const attempt = state.attempt + 1;
  const refusal = (message: string): BulkActionState => ({ message, values, outcome: null, attempt });

  const field = Object.hasOwn(entity.fieldsByName, fieldName) ? entity.fieldsByName[fieldName] : undefined;
  // Not a field the panel could offer (a forged or outdated form); whether the actor may write it is ops' to say.
  if (!field || !isBulkSettable(entity, field)) return refusal('Choose what to do with the selected rows.');
  const { rows, problem } = readSelection(entity, formData);
  if (rows === null) return refusal(problem);
  if (raw === '') return refusal(`Choose the new ${field.label}.`);
  const clear = raw === BULK_CLEAR_VALUE;
  if (clear && field.required) return refusal(`${field.label} cannot be empty.`);

  const posted = new FormData();
  posted.set(field.name, clear ? '' : raw);
  const { input } = readFormInput(posted, [field], zone);
  let results: BulkUpdateResult[];
  try {
    results = await engine.ops.bulkUpdate(actor, entity.name, rows, input);
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known || known.code === 'NOT_FOUND') throw error;
    return refusal(known.message);
  }
  return {
    message: null,
    values: { choice: values.choice },
    outcome: await outcomeOf(engine, actor, entity, field, clear ? null : raw, results),
    attempt,
  };
}

async function outcomeOf(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  field: FieldModel,
  raw: string | null,
  results: readonly BulkUpdateResult[],
): Promise<BulkOutcome> {
  const done = results.filter((r) => r.ok).length;
  const refused = await refusedRows(engine, actor, entity, results);
  const shown = raw === null ? null : await valueText(engine, actor, entity, field, raw, results);
  const to = raw === null ? 'emptied' : shown === null ? 'set' : `set to ${shown}`;
  return {
    summary: done === 0 ? null : `${field.label} ${to} on ${rowCount(entity, done)}.`,
    done,
    refusedTitle: refused.length === 0 ? null : `${field.label} was not changed on ${rowCount(entity, refused.length)}:`,
    refused,
  };
}

/**
 * The value as the report names it: an enum's label, Yes or No, what was typed; a record or a
 * person by its title as a changed row shows it (null when none changed: the report then names no value).
 */
async function valueText(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  field: FieldModel,
  raw: string,
  results: readonly BulkUpdateResult[],
): Promise<string | null> {
  const spec = field.spec;
  if (spec.type === 'enum') return enumLabel(spec.labels, raw);
  if (spec.type === 'boolean') return formatBoolean(raw);
  if (spec.type !== 'reference' && spec.type !== 'user') return raw;
  const changed = results.find((r) => r.ok);
  if (!changed) return null;
  try {
    const { references } = await engine.ops.get(actor, entity.name, changed.id);
    return references[field.name]?.[Number(raw)] ?? null;
  } catch (error) {
    // The change may have taken the row out of the actor's sight.
    if (!asNinefoldError(error)) throw error;
    return null;
  }
}
