import type { Engine } from '@/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import type { BulkRowRefusal } from '@/engine/ops/types';
import { ownTitle } from '@/engine/ops/record-title';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { inSentence } from '@/engine/spec/naming';
import { BULK_ROW_INPUT, type BulkRowReport } from '@/ui/record/bulk-action-state';
import { refusalMessage } from './refusal-text';

/*
 * What every bulk action of a list shares (src/server/bulk-actions.ts): the selected rows read
 * from the form, counts in words, and each refused row named as far as the actor may see it.
 */

/** A row's checkbox value: "<id>:<version>". */
const ROW_VALUE = /^(\d{1,15}):(\d{1,15})$/;

/** A posted field's text ('' when absent or a file). Here rather than account-forms', which only a server may import: the bulk actions are tested as plain functions. */
export function postedText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}

/** "1 ticket", "3 tickets". */
export function rowCount(entity: EntityModel, n: number): string {
  return `${n} ${inSentence(n === 1 ? entity.label : entity.pluralLabel)}`;
}

/** The selected rows, or null when one of them cannot be read (a forged or broken form). */
function selectedRows(formData: FormData): { id: number; version: number }[] | null {
  const rows = new Map<number, { id: number; version: number }>();
  for (const value of formData.getAll(BULK_ROW_INPUT)) {
    const match = typeof value === 'string' ? ROW_VALUE.exec(value) : null;
    if (!match) return null;
    const id = Number(match[1]);
    if (!Number.isSafeInteger(id) || id < 1) return null;
    // A row posted twice (checked in the table and carried by the question) is taken once.
    if (!rows.has(id)) rows.set(id, { id, version: Number(match[2]) });
  }
  return [...rows.values()];
}

/** The selected rows, or the words every bulk action answers with when there are none to act on. */
export function readSelection(
  entity: EntityModel,
  formData: FormData,
): { readonly rows: { id: number; version: number }[]; readonly problem: null } | { readonly rows: null; readonly problem: string } {
  const rows = selectedRows(formData);
  if (rows === null) return { rows: null, problem: 'The selection could not be read. Reload the list and select the rows again.' };
  if (rows.length === 0) return { rows: null, problem: `Select at least one ${inSentence(entity.label)} first.` };
  return { rows, problem: null };
}

/** The refused rows of a bulk action's results, each named as the actor may see it, in order. */
export async function refusedRows(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  results: readonly ({ readonly ok: true } | BulkRowRefusal)[],
): Promise<BulkRowReport[]> {
  const refused: BulkRowReport[] = [];
  for (const result of results) {
    if (!result.ok) refused.push(await refusedRow(engine, actor, entity, result));
  }
  return refused;
}

/** A refused row, named as the actor may see it: its title and link when they can read it, only the number they sent when not. */
async function refusedRow(engine: Engine, actor: Actor, entity: EntityModel, result: BulkRowRefusal): Promise<BulkRowReport> {
  const { id, code } = result;
  // A report has no inputs to mark: a rule broken on a field says which rule and which field.
  const readable = new Set(engine.ops.access(actor, entity.name).readable);
  const message =
    code === 'STALE_VERSION'
      ? 'Changed by someone else after the list was loaded; the list now shows it as it is.'
      : refusalMessage(entity, readable, result, 0, result.fieldErrors ?? []);
  const unseen: BulkRowReport = { id, title: `#${id}`, href: null, message, code };
  if (code === 'NOT_FOUND') return unseen;
  try {
    const { record, references } = await engine.ops.get(actor, entity.name, id);
    const name = ownTitle(entity, record, references);
    return { ...unseen, title: name === null ? `#${id}` : `#${id} ${name}`, href: `/${entity.plural}/${id}` };
  } catch (error) {
    if (!asNinefoldError(error)) throw error;
    return unseen;
  }
}
