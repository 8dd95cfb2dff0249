import { targetStates } from '@/engine/workflow/targets';
import type { Engine } from '@/engine/engine';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import type { BulkTransitionResult } from '@/engine/ops/types';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel, TransitionModel } from '@/engine/spec/model';
import { BULK_CHOICE_INPUT, BULK_COMMENT_INPUT, type BulkOutcome, type BulkActionState } from '@/ui/record/bulk-action-state';
import { CONFIRM_INPUT, CONFIRM_VALUE } from '@/ui/confirm/confirm-input';
import { finalTarget } from '@/ui/record/transition-question';
import { entityNamed } from './entity-named';
import { readFormInput } from './forms';
import { postedText, readSelection, refusedRows, rowCount } from './bulk-rows';

/*
 * A workflow transition on the rows selected in a list, without Next.js: the server action
 * (src/server/actions/bulk-actions.ts) resolves the actor and the engine, calls this, and
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

export async function submitBulkTransition(
  engine: Engine,
  actor: Actor,
  entityName: string,
  state: BulkActionState,
  formData: FormData,
  /** The viewer's zone (src/server/viewer-zone.ts): posted date-times are wall times in it. */
  zone: string,
): Promise<BulkActionState> {
  const entity = entityNamed(engine, entityName, { withWorkflow: true });
  const transitionName = postedText(formData, BULK_CHOICE_INPUT);
  const comment = postedText(formData, BULK_COMMENT_INPUT);
  // What the toolbar offers for the transitions' required fields, kept to show it again.
  const offered = bulkFieldsOf(entity);
  const typed = readFormInput(formData, offered, zone);
  const values = { choice: transitionName, comment, ...(Object.keys(typed.values).length > 0 ? { fields: typed.values } : {}) };
  const attempt = state.attempt + 1;
  const refusal = (message: string): BulkActionState => ({ message, values, outcome: null, attempt });

  const transition = entity.workflow!.transitions.find((t) => t.name === transitionName);
  if (!transition) return refusal('Choose what to do with the selected rows.');
  const { rows, problem } = readSelection(entity, formData);
  if (rows === null) return refusal(problem);
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
    values: { choice: transition.name },
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
  const refused = await refusedRows(engine, actor, entity, results);
  // The state the rows entered: one, unless the data chose it row by row (then the rows say).
  const states = targetStates(transition);
  const to = states.length === 1 ? (entity.workflow!.states.find((s) => s.name === states[0])?.label ?? states[0]) : null;
  const now = to === null ? '' : `; ${done === 1 ? 'it is' : 'they are'} now ${to}`;
  return {
    summary: done === 0 ? null : `“${transition.label}” taken on ${rowCount(entity, done)}${now}.`,
    done,
    refusedTitle: refused.length === 0 ? null : `“${transition.label}” was not taken on ${rowCount(entity, refused.length)}:`,
    refused,
  };
}
