'use server';

import { refresh } from 'next/cache';
import { notFound, redirect } from 'next/navigation';
import type { RecordFormState } from '@/ui/forms/state';
import { SCRIPTED_INPUT } from '@/ui/record/related-state';
import { getEngine } from '../engine';
import { viewerZone } from '../viewer-zone';
import { asNinefoldError } from '../errors';
import { isRedirect } from '../record-actions';
import { submitRelated } from '../related-actions';
import { requireActor } from '../session';

/*
 * The add-in-place door of a detail page's related section: resolve the actor, run the plain
 * action (src/server/related-actions.ts, one ops call), then either redirect back to the section
 * (a plain post, without JavaScript) or, posted by script, refresh the page where it is and hand
 * back an empty form (no reload, the scroll position kept, the new record shown).
 */
export async function addRelated(
  parentName: string,
  parentId: number,
  sectionKey: string,
  state: RecordFormState,
  formData: FormData,
): Promise<RecordFormState> {
  const actor = await requireActor();
  const engine = await getEngine();
  let result;
  try {
    result = await submitRelated(engine, actor, parentName, parentId, sectionKey, state, formData, await viewerZone());
  } catch (error) {
    if (asNinefoldError(error)?.code === 'NOT_FOUND') notFound();
    throw error;
  }
  if (!isRedirect(result)) return result;
  if (formData.get(SCRIPTED_INPUT) === null) redirect(result.redirectTo);
  refresh();
  return { values: {}, fieldErrors: {}, message: null, attempt: state.attempt + 1 };
}
