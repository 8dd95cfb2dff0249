import type { Engine } from '@/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import type { BulkDeleteResult } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { inSentence } from '@/engine/spec/naming';
import { CONFIRM_INPUT, CONFIRM_VALUE, type ConfirmQuestion } from '@/ui/confirm/confirm-input';
import { bulkChoiceValue, type BulkActionState } from '@/ui/record/bulk-action-state';
import { entityNamed } from './entity-named';
import { readSelection, refusedRows, rowCount } from './bulk-rows';

/*
 * Deleting the rows selected in a list, without Next.js (the server action is
 * src/server/actions/bulk-actions.ts): ops.bulkDelete decides for each row (its scope, the
 * version the user saw, what refers to it). A delete cannot be undone, so it goes ahead only with
 * the user's confirmation (CONFIRM_INPUT); without it nothing is deleted and the panel asks, with
 * the rows to post again.
 */

/** What the panel asks before deleting (in its dialog with JavaScript, in the server's answer without). */
export function bulkDeleteQuestion(entity: EntityModel): ConfirmQuestion {
  const plural = inSentence(entity.pluralLabel);
  return {
    title: `Delete the selected ${plural}?`,
    description: `Each selected ${inSentence(entity.label)} you may delete is deleted for good; this cannot be undone.`,
    confirmLabel: 'Delete',
  };
}

export async function submitBulkDelete(
  engine: Engine,
  actor: Actor,
  entityName: string,
  state: BulkActionState,
  formData: FormData,
): Promise<BulkActionState> {
  const entity = entityNamed(engine, entityName);
  const values = { choice: bulkChoiceValue({ kind: 'delete' }) };
  const attempt = state.attempt + 1;
  const refusal = (message: string): BulkActionState => ({ message, values, outcome: null, attempt });
  const { rows, problem } = readSelection(entity, formData);
  if (rows === null) return refusal(problem);
  if (formData.get(CONFIRM_INPUT) !== CONFIRM_VALUE) {
    return {
      message: null,
      values: { ...values, rows: rows.map((row) => `${row.id}:${row.version}`) },
      outcome: null,
      confirm: true,
      attempt,
    };
  }
  let results: BulkDeleteResult[];
  try {
    results = await engine.ops.bulkDelete(actor, entity.name, rows);
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known || known.code === 'NOT_FOUND') throw error;
    return refusal(known.message);
  }
  const done = results.filter((r) => r.ok).length;
  const refused = await refusedRows(engine, actor, entity, results);
  return {
    message: null,
    values,
    outcome: {
      summary: done === 0 ? null : `${rowCount(entity, done)} deleted.`,
      done,
      refusedTitle: refused.length === 0 ? null : `${rowCount(entity, refused.length)} not deleted:`,
      refused,
    },
    attempt,
  };
}
