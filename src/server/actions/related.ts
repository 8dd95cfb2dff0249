'use server';

import type { RecordFormState } from '@/ui/forms/state';
import { answerInPlace } from '../in-place-answer';
import { viewerZone } from '../viewer-zone';
import { submitRelated } from '../related-actions';

/*
 * The add-in-place door of a detail page's related section: the plain action
 * (src/server/related-actions.ts, one ops call) answered in place (../in-place-answer.ts): back
 * to the section without JavaScript, or the page refreshed where it is with the new record shown.
 */
export async function addRelated(
  parentName: string,
  parentId: number,
  sectionKey: string,
  state: RecordFormState,
  formData: FormData,
): Promise<RecordFormState> {
  return answerInPlace(state, formData, async (engine, actor) =>
    submitRelated(engine, actor, parentName, parentId, sectionKey, state, formData, await viewerZone()),
  );
}
