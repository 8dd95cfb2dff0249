'use server';

import { notFound, redirect } from 'next/navigation';
import type { Engine } from '@/engine/engine';
import type { Actor } from '@/engine/ground/actor';
import type { MessageFormState, RecordFormState } from '@/ui/forms/state';
import { getEngine } from '../engine';
import { viewerZone } from '../viewer-zone';
import { asNinefoldError } from '../errors';
import { isRedirect, submitCreate, submitDelete, submitUpdate, type Redirect } from '../record-actions';
import { requireActor } from '../session';
import { answerInPlace } from '../in-place-answer';
import { requireViewer } from '../viewer';

/*
 * The form door: resolve the actor, run the plain action (src/server/record-actions.ts, which
 * calls one ops function), then go where it says or hand the form back. Entity and id are bound
 * by the page; they come back from the browser, so the plain action checks them again.
 */

async function run<S extends object>(
  submit: (engine: Engine, actor: Actor) => Promise<S | Redirect>,
  resolve: () => Promise<Actor> = requireActor,
): Promise<S> {
  const actor = await resolve();
  const engine = await getEngine();
  let result: S | Redirect;
  try {
    result = await submit(engine, actor);
  } catch (error) {
    if (asNinefoldError(error)?.code === 'NOT_FOUND') notFound();
    throw error;
  }
  if (isRedirect(result)) redirect(result.redirectTo);
  return result;
}

export async function createRecord(entityName: string, state: RecordFormState, formData: FormData): Promise<RecordFormState> {
  // A visitor's create (a contact form) is resolved as on the page: the session, or the visitor when the spec lets them in.
  return run(
    async (engine, actor) => submitCreate(engine, actor, entityName, state, formData, await viewerZone()),
    () => requireViewer(),
  );
}

export async function updateRecord(
  entityName: string,
  recordId: number,
  state: RecordFormState,
  formData: FormData,
): Promise<RecordFormState> {
  return run(async (engine, actor) => submitUpdate(engine, actor, entityName, recordId, state, formData, await viewerZone()));
}

/**
 * One field changed in place on the record page (or "Assign to me"): the form posts that field
 * and the version alone, so only it is written, version-checked. Posted by script, the page is
 * refreshed where it is; a plain post goes back to the record.
 */
export async function updateField(
  entityName: string,
  recordId: number,
  state: RecordFormState,
  formData: FormData,
): Promise<RecordFormState> {
  return answerInPlace(state, formData, async (engine, actor) =>
    submitUpdate(engine, actor, entityName, recordId, state, formData, await viewerZone()),
  );
}

export async function deleteRecord(
  entityName: string,
  recordId: number,
  state: MessageFormState,
  formData: FormData,
): Promise<MessageFormState> {
  return run((engine, actor) => submitDelete(engine, actor, entityName, recordId, state, formData));
}
