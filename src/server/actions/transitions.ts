'use server';

import { notFound, redirect } from 'next/navigation';
import type { TransitionFormState } from '@/ui/record/transition-state';
import { getEngine } from '../engine';
import { viewerZone } from '../viewer-zone';
import { asNinefoldError } from '../errors';
import { isRedirect } from '../record-actions';
import { requireActor } from '../session';
import { submitTransition } from '../transition-actions';

/*
 * The transition door of the detail page: resolve the actor, run the plain action
 * (src/server/transition-actions.ts, one ops call), then go where it says or hand the small form
 * back. Entity, id and transition are bound by the page; they come back from the browser, so the
 * plain action and ops check them again.
 */
export async function takeTransition(
  entityName: string,
  recordId: number,
  transitionName: string,
  state: TransitionFormState,
  formData: FormData,
): Promise<TransitionFormState> {
  const actor = await requireActor();
  const engine = await getEngine();
  let result;
  try {
    result = await submitTransition(engine, actor, entityName, recordId, transitionName, state, formData, await viewerZone());
  } catch (error) {
    if (asNinefoldError(error)?.code === 'NOT_FOUND') notFound();
    throw error;
  }
  if (isRedirect(result)) redirect(result.redirectTo);
  return result;
}
