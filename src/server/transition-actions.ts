import type { Engine } from '@/engine/engine';
import { asNinefoldError, NinefoldError, notFound, type FieldError } from '@/engine/errors/ninefold-error';
import type { Actor } from '@/engine/ground/actor';
import type { EntityModel } from '@/engine/spec/model';
import { CONFIRM_INPUT, CONFIRM_VALUE } from '@/ui/confirm/confirm-input';
import { VERSION_INPUT } from '@/ui/forms/state';
import { finalTarget } from '@/ui/record/transition-question';
import { COMMENT_INPUT, type TransitionFormState } from '@/ui/record/transition-state';
import { nonNegativeInteger, readFormInput } from './forms';
import type { Redirect } from './record-actions';
import { entityNamed } from './entity-named';
import { refusalMessage } from './refusal-text';
import { inSentence } from '@/engine/spec/naming';

/*
 * A workflow transition from the detail page, without Next.js: the server action
 * (src/server/actions/transitions.ts) resolves the actor and the engine, calls this, then
 * redirects or hands the small form back. One ops call decides; what the form posted for any
 * declared field is passed on, so a forged field is refused (FORBIDDEN_FIELD), never dropped.
 *
 * An unknown entity or a malformed id throws NOT_FOUND (the action answers with the 404 page);
 * any other refusal comes back as the form's state, with what was typed.
 *
 * A transition into a final state cannot be undone, so it is taken only with the user's
 * confirmation (CONFIRM_INPUT, sent by the dialog or by the form's question without JavaScript);
 * without it nothing is changed and the form asks. The REST API does not ask: its clients decide.
 */

export async function submitTransition(
  engine: Engine,
  actor: Actor,
  entityName: string,
  recordId: number,
  transitionName: string,
  state: TransitionFormState,
  formData: FormData,
  /** The viewer's zone (src/server/viewer-zone.ts): posted date-times are wall times in it. */
  zone: string,
): Promise<TransitionFormState | Redirect> {
  const entity = entityNamed(engine, entityName, { withWorkflow: true });
  if (!Number.isSafeInteger(recordId) || recordId < 1) throw notFound(inSentence(entity.label));
  const base = `/${entity.plural}/${recordId}`;
  const { input, values } = readFormInput(formData, entity.fields, zone);
  const posted = formData.get(COMMENT_INPUT);
  const comment = typeof posted === 'string' ? posted : undefined;
  if (comment !== undefined) values[COMMENT_INPUT] = comment;
  const version = nonNegativeInteger(formData.get(VERSION_INPUT));
  if (finalTarget(entity.workflow!, transitionName) && formData.get(CONFIRM_INPUT) !== CONFIRM_VALUE) {
    return { values: { ...state.values, ...values }, fieldErrors: {}, message: null, confirm: true, attempt: state.attempt + 1 };
  }
  try {
    if (version === null) throw new NinefoldError('PRECONDITION_REQUIRED');
    await engine.ops.transition(actor, entity.name, recordId, transitionName, {
      version,
      ...(comment !== undefined && comment.trim() !== '' ? { comment } : {}),
      ...(Object.keys(input).length > 0 ? { input } : {}),
    });
  } catch (error) {
    return refusedTransition(error, state, values, entity, new Set(engine.ops.access(actor, entity.name).readable), base);
  }
  // A transition may take the record out of what the actor may read: then the list, not a 404.
  try {
    await engine.ops.get(actor, entity.name, recordId);
  } catch (error) {
    if (asNinefoldError(error)?.code === 'NOT_FOUND') return { redirectTo: `/${entity.plural}` };
    throw error;
  }
  return { redirectTo: base };
}

/**
 * The small form again, with what was typed and the catalogue's reason; errors of fields the form
 * does not show (a record rule on a field the user did not touch) are told in the message, with
 * the field's label. Errors that are not the user's are thrown on.
 */
function refusedTransition(
  error: unknown,
  state: TransitionFormState,
  values: Record<string, string>,
  entity: EntityModel,
  readable: ReadonlySet<string>,
  base: string,
): TransitionFormState {
  const known = asNinefoldError(error);
  if (!known) throw error;
  if (known.code === 'NOT_FOUND') throw known;
  const shown = new Set(Object.keys(values));
  const fieldErrors: Record<string, string> = {};
  const elsewhere: FieldError[] = [];
  for (const fieldError of known.fieldErrors) {
    // ops names the comment "comment"; the form's input has a name no field can take.
    const name = fieldError.field === 'comment' && !entity.fieldsByName.comment ? COMMENT_INPUT : fieldError.field;
    if (shown.has(name)) fieldErrors[name] ??= fieldError.message;
    else if (fieldError.message !== known.message) elsewhere.push(fieldError);
  }
  // "Needs an assignee." next to the select says it all; the same words again on top would not.
  const repeated = elsewhere.length === 0 && Object.values(fieldErrors).includes(known.message);
  return {
    values: { ...state.values, ...values },
    fieldErrors,
    message: repeated ? null : refusalMessage(entity, readable, known, Object.keys(fieldErrors).length, elsewhere),
    code: known.code,
    ...(known.code === 'STALE_VERSION' ? { reloadHref: base } : {}),
    attempt: state.attempt + 1,
  };
}
