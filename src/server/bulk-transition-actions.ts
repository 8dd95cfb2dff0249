import { targetStates } from '@/engine/workflow/targets';
import type { Engine } from '@/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import type { BulkTransitionResult } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel, TransitionModel } from '@/engine/spec/model';
import {
  BULK_COMMENT_INPUT,
  BULK_ROW_INPUT,
  BULK_TRANSITION_INPUT,
  type BulkOutcome,
  type BulkRowReport,
  type BulkTransitionState,
} from '@/ui/record/bulk-transition-state';
import { CONFIRM_INPUT, CONFIRM_VALUE } from '@/ui/confirm/confirm-input';
import { finalTarget } from '@/ui/record/transition-question';
import { ownTitle } from '@/engine/ops/record-title';
import { entityNamed } from './entity-named';
import { readFormInput } from './forms';
import { refusalMessage } from './refusal-text';
import { inSentence } from '@/engine/spec/naming';

/*
 * A workflow transition on the rows selected in a list, without Next.js: the server action
 * (src/server/actions/bulk-transitions.ts) resolves the actor and the engine, calls this, and
 * hands the toolbar its state. One ops call decides for every row (ops.bulkTransition, each row in
 * its own transaction with the version the user saw); this only reads the form and words the
 * report: how many moved, and each refused row with why.
 *
 * An unknown entity, or one without a workflow, throws NOT_FOUND (the action answers with the 404
 * page); a refusal of the whole submission comes back as the toolbar's message, with what was chosen.
 *
 * A transition into a final state cannot be undone, so it is taken only with the user's
 * confirmation (CONFIRM_INPUT); without it nothing is changed and the toolbar asks, with the rows
 * to post again.
 */

/** A row's checkbox value: "<id>:<version>". */
const ROW_VALUE = /^(\d{1,15}):(\d{1,15})$/;

function text(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}

/** "1 ticket", "3 tickets". */
function count(entity: EntityModel, n: number): string {
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

export async function submitBulkTransition(
  engine: Engine,
  actor: Actor,
  entityName: string,
  state: BulkTransitionState,
  formData: FormData,
  /** The viewer's zone (src/server/viewer-zone.ts): posted date-times are wall times in it. */
  zone: string,
): Promise<BulkTransitionState> {
  const entity = entityNamed(engine, entityName, { withWorkflow: true });
  const transitionName = text(formData, BULK_TRANSITION_INPUT);
  const comment = text(formData, BULK_COMMENT_INPUT);
  // What the toolbar offers for the transitions' required fields, kept to show it again.
  const offered = bulkFieldsOf(entity);
  const typed = readFormInput(formData, offered, zone);
  const values = { transition: transitionName, comment, ...(Object.keys(typed.values).length > 0 ? { fields: typed.values } : {}) };
  const attempt = state.attempt + 1;
  const refusal = (message: string): BulkTransitionState => ({ message, values, outcome: null, attempt });

  const transition = entity.workflow!.transitions.find((t) => t.name === transitionName);
  if (!transition) return refusal('Choose what to do with the selected rows.');
  const rows = selectedRows(formData);
  if (rows === null) return refusal('The selection could not be read. Reload the list and select the rows again.');
  if (rows.length === 0) return refusal(`Select at least one ${inSentence(entity.label)} first.`);
  // The same words ops uses, without asking it once per row.
  if (transition.comment === 'required' && comment.trim() === '') return refusal(`"${transition.label}" needs a comment.`);
  if (finalTarget(entity.workflow!, transition.name) && formData.get(CONFIRM_INPUT) !== CONFIRM_VALUE) {
    return {
      message: null,
      values: { ...values, rows: rows.map((row) => `${row.id}:${row.version}`) },
      outcome: null,
      confirm: true,
      attempt,
    };
  }

  // Only the fields this transition requires, and only those filled in: set on every row it is taken on.
  const input = Object.fromEntries(
    Object.entries(typed.input).filter(([name, value]) => transition.requires.includes(name) && value.trim() !== ''),
  );
  let results: BulkTransitionResult[];
  try {
    results = await engine.ops.bulkTransition(actor, entity.name, transition.name, rows, {
      ...(comment.trim() === '' ? {} : { comment }),
      ...(Object.keys(input).length > 0 ? { input } : {}),
    });
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known || known.code === 'NOT_FOUND') throw error;
    return refusal(known.message);
  }
  return {
    message: null,
    values: { transition: transition.name },
    outcome: await outcomeOf(engine, actor, entity, transition, results),
    attempt,
  };
}

/** The fields some transition of the entity requires: the toolbar's optional inputs. */
export function bulkFieldsOf(entity: EntityModel) {
  const names = new Set(entity.workflow?.transitions.flatMap((t) => t.requires) ?? []);
  return entity.fields.filter((field) => names.has(field.name));
}

async function outcomeOf(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  transition: TransitionModel,
  results: readonly BulkTransitionResult[],
): Promise<BulkOutcome> {
  const done = results.filter((r) => r.ok).length;
  const refused: BulkRowReport[] = [];
  for (const result of results) {
    if (!result.ok) refused.push(await refusedRow(engine, actor, entity, result));
  }
  // The state the rows entered: one, unless the data chose it row by row (then the rows say).
  const states = targetStates(transition);
  const to = states.length === 1 ? (entity.workflow!.states.find((s) => s.name === states[0])?.label ?? states[0]) : null;
  const now = to === null ? '' : `; ${done === 1 ? 'it is' : 'they are'} now ${to}`;
  return {
    summary: done === 0 ? null : `“${transition.label}” taken on ${count(entity, done)}${now}.`,
    done,
    refusedTitle: refused.length === 0 ? null : `“${transition.label}” was not taken on ${count(entity, refused.length)}:`,
    refused,
  };
}

/** A refused row, named as the actor may see it: its title and link when they can read it, only the number they sent when not. */
async function refusedRow(
  engine: Engine,
  actor: Actor,
  entity: EntityModel,
  result: Extract<BulkTransitionResult, { ok: false }>,
): Promise<BulkRowReport> {
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
