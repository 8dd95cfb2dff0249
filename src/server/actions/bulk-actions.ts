'use server';

import { revalidatePath } from 'next/cache';
import { notFound } from 'next/navigation';
import type { BulkActionState } from '@/ui/record/bulk-action-state';
import { submitBulkAction } from '../bulk-actions';
import { getEngine } from '../engine';
import { viewerZone } from '../viewer-zone';
import { asNinefoldError } from '../errors';
import { requireActor } from '../session';

/*
 * The bulk door of a list page (a transition, "Set <field>" or a delete on the selected rows):
 * resolve the actor, run the plain action (src/server/bulk-actions.ts, one ops call), and after
 * ops ran, have the list rendered again with fresh rows (the ones changed, and the ones someone
 * else had changed). The entity is
 * bound by the page; it comes back from the browser, so the plain action and ops check it again.
 */
export async function takeBulkAction(entityName: string, state: BulkActionState, formData: FormData): Promise<BulkActionState> {
  const actor = await requireActor();
  const engine = await getEngine();
  let result;
  try {
    result = await submitBulkAction(engine, actor, entityName, state, formData, await viewerZone());
  } catch (error) {
    if (asNinefoldError(error)?.code === 'NOT_FOUND') notFound();
    throw error;
  }
  if (result.outcome) revalidatePath(`/${engine.model.entitiesByName[entityName]!.plural}`);
  return result;
}
