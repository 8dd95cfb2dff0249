'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import type { Actor } from '@/engine/ground/actor';
import { TOKEN_LIFETIMES, type AccountFormState } from '@/ui/forms/account-state';
import { failed, formId, formText, refused, succeeded } from '../account-forms';
import { confirmationNeeded, confirmed } from '../confirm';
import { getEngine } from '../engine';
import { currentActor, setSessionCookie } from '../session';

/** The account page's actions act on the signed-in user only: ids of others are never taken from the form. */
async function signedIn(): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in?next=%2Faccount');
  return actor;
}

export async function updateNameAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await signedIn();
  const name = formText(formData, 'name');
  try {
    const account = await (await getEngine()).identity.updateProfile(actor.userId, { name });
    // The name is shown in every page's header.
    revalidatePath('/', 'layout');
    return succeeded(state, 'Your name was saved.', { values: { name: account.name } });
  } catch (error) {
    return refused(state, error, { name });
  }
}

export async function changePasswordAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await signedIn();
  const current = formText(formData, 'currentPassword');
  const next = formText(formData, 'newPassword');
  if (next !== formText(formData, 'confirmPassword')) {
    return failed(state, 'Check the fields marked below.', { confirmPassword: 'The two new passwords are not the same.' });
  }
  try {
    // Every session of the user ends; this browser continues with the new one.
    const session = await (await getEngine()).identity.changePassword(actor.userId, current, next);
    await setSessionCookie(session.token, session.expiresAt);
  } catch (error) {
    return refused(state, error);
  }
  return succeeded(state, 'Your password was changed. Every other session of yours has been signed out.');
}

export async function createTokenAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await signedIn();
  const name = formText(formData, 'name');
  const expiry = formText(formData, 'expiry');
  const lifetime = TOKEN_LIFETIMES.find((l) => l.value === expiry);
  if (!lifetime) return failed(state, 'Check the fields marked below.', { expiry: 'Choose when the token expires.' }, { name, expiry });
  const expiresAt = lifetime.days === null ? null : new Date(Date.now() + lifetime.days * 24 * 60 * 60 * 1000);
  try {
    const issued = await (await getEngine()).identity.createApiToken(actor.userId, { name, expiresAt });
    revalidatePath('/account');
    return succeeded(state, `Token "${issued.name}" created. Copy it now: it is shown only this once.`, { secret: issued.token });
  } catch (error) {
    return refused(state, error, { name, expiry });
  }
}

export async function revokeTokenAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await signedIn();
  const id = formId(formData, 'id');
  if (!confirmed(formData)) return confirmationNeeded(state);
  try {
    await (await getEngine()).identity.revokeApiToken(actor.userId, id ?? 0);
  } catch (error) {
    return refused(state, error);
  }
  revalidatePath('/account');
  return succeeded(state, 'Token revoked.');
}
