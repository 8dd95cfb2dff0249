'use server';

import { revalidatePath } from 'next/cache';
import { notFound } from 'next/navigation';
import type { BulkTransitionState } from '@/ui/record/bulk-transition-state';
import { submitBulkTransition } from '../bulk-transition-actions';
import { getEngine } from '../engine';
import { viewerZone } from '../viewer-zone';
import { asNinefoldError } from '../errors';
import { requireActor } from '../session';

/*
 * The bulk-transition door of a list page: resolve the actor, run the plain action
 * (src/server/bulk-transition-actions.ts, one ops call), and after ops ran, have the list rendered
 * again with fresh rows (the ones that moved, and the ones someone else had changed). The entity is
 * bound by the page; it comes back from the browser, so the plain action and ops check it again.
 */
export async function takeBulkTransition(entityName: string, state: BulkTransitionState, formData: FormData): Promise<BulkTransitionState> {
  const actor = await requireActor();
  const engine = await getEngine();
  let result;
  try {
    result = await submitBulkTransition(engine, actor, entityName, state, formData, await viewerZone());
  } catch (error) {
    if (asNinefoldError(error)?.code === 'NOT_FOUND') notFound();
    throw error;
  }
  if (result.outcome) revalidatePath(`/${engine.model.entitiesByName[entityName]!.plural}`);
  return result;
}
