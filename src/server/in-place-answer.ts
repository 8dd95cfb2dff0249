import 'server-only';
import { refresh } from 'next/cache';
import { notFound, redirect } from 'next/navigation';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import type { RecordFormState } from '@/ui/forms/state';
import { SCRIPTED_INPUT } from '@/ui/record/related-state';
import { getEngine } from './engine';
import { asNinefoldError } from './errors';
import { isRedirect, type Redirect } from './record-actions';
import { requireActor } from './session';

/**
 * The door of a form that changes the page it is on (a reply, a field changed in place): resolve
 * the actor, run the plain action, then either redirect (a plain post, without JavaScript) or,
 * posted by script, refresh the page where it is and hand back an empty form (no reload, the
 * scroll position kept). A refusal hands the form back as the action returned it.
 */
export async function answerInPlace(
  state: RecordFormState,
  formData: FormData,
  submit: (engine: Engine, actor: Actor) => Promise<RecordFormState | Redirect>,
): Promise<RecordFormState> {
  const actor = await requireActor();
  const engine = await getEngine();
  let result;
  try {
    result = await submit(engine, actor);
  } catch (error) {
    if (asNinefoldError(error)?.code === 'NOT_FOUND') notFound();
    throw error;
  }
  if (!isRedirect(result)) return result;
  if (formData.get(SCRIPTED_INPUT) === null) redirect(result.redirectTo);
  refresh();
  return { values: {}, fieldErrors: {}, message: null, attempt: state.attempt + 1 };
}
