'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import type { Actor } from '@/engine/ground/actor';
import type { AccountFormState } from '@/ui/forms/account-state';
import { failed, formId, formText, formTexts, refused, succeeded } from '../account-forms';
import { getEngine } from '../engine';
import { listStateOf, parseListParams } from '../list-query';
import { currentActor } from '../session';
import { notFound } from '@/engine/errors/ninefold-error';

/** Saved views belong to the signed-in user: an owner is never taken from the form. */
async function signedIn(back: string): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) redirect(`/sign-in?next=${encodeURIComponent(back)}`);
  return actor;
}

/** The navigation (in the layout) lists the views: every change shows there at once. */
function viewsChanged(): void {
  revalidatePath('/', 'layout');
}

/** Saves the list the form was on (its query string, minus the page) under a name. */
export async function saveViewAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const entityName = formText(formData, 'entity');
  const query = formText(formData, 'query');
  const name = formText(formData, 'name');
  const engine = await getEngine();
  const entity = engine.model.entitiesByName[entityName];
  const actor = await signedIn(entity ? `/${entity.plural}` : '/');
  if (!entity) return failed(state, 'This list no longer exists.', {}, { name });
  const { params, problem } = parseListParams(entity, Object.fromEntries(new URLSearchParams(query)));
  if (problem) return failed(state, problem, {}, { name });
  try {
    const view = await engine.views.create(actor, { entity: entity.name, name, state: listStateOf(params) });
    viewsChanged();
    return succeeded(state, `Saved as "${view.name}".`);
  } catch (error) {
    return refused(state, error, { name });
  }
}

/** Puts the list the form was on into an existing view of the user's, keeping its name. */
export async function updateViewAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await signedIn('/views');
  const engine = await getEngine();
  const views = engine.views;
  try {
    const view = await views.get(actor, formId(formData, 'id') ?? 0);
    const entity = engine.model.entitiesByName[view.entity];
    // views.get answers only views of the model's entities: the same NOT_FOUND as its own.
    if (!entity) throw notFound('saved view');
    const { params, problem } = parseListParams(entity, Object.fromEntries(new URLSearchParams(formText(formData, 'query'))));
    if (problem) return failed(state, problem);
    const updated = await views.replaceState(actor, view.id, listStateOf(params));
    viewsChanged();
    return succeeded(state, `"${updated.name}" now shows this list.`);
  } catch (error) {
    return refused(state, error);
  }
}

export async function renameViewAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await signedIn('/views');
  const name = formText(formData, 'name');
  try {
    const view = await (await getEngine()).views.rename(actor, formId(formData, 'id') ?? 0, name);
    viewsChanged();
    return succeeded(state, `Renamed to "${view.name}".`, { values: { name: view.name } });
  } catch (error) {
    return refused(state, error, { name });
  }
}

export async function shareViewAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await signedIn('/views');
  const roles = formTexts(formData, 'roles');
  try {
    const view = await (await getEngine()).views.share(actor, formId(formData, 'id') ?? 0, roles);
    viewsChanged();
    return succeeded(state, view.sharedWith.length > 0 ? 'Sharing saved.' : 'No longer shared.', {
      values: { roles: view.sharedWith.join(',') },
    });
  } catch (error) {
    return refused(state, error, { roles: roles.join(',') });
  }
}

export async function deleteViewAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await signedIn('/views');
  try {
    await (await getEngine()).views.delete(actor, formId(formData, 'id') ?? 0);
  } catch (error) {
    return refused(state, error);
  }
  viewsChanged();
  return succeeded(state, 'View deleted.');
}
