'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import type { AccountFormState } from '@/ui/forms/account-state';
import { USER_FIELD_PREFIX } from '@/ui/forms/user-fields-state';
import { formId, formText, formTexts, refused, succeeded } from '../account-forms';
import { confirmationNeeded, confirmed } from '../confirm';
import { getEngine } from '../engine';
import { requestOrigin } from '../request-host';
import { requireAdmin } from '../session';

/** Administrators only, checked again in every action: an action is a public endpoint whatever the page shows. */
const admin = () => requireAdmin('/admin/users');
const PAGE = '/admin/users';

export async function inviteAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await admin();
  const email = formText(formData, 'email').trim();
  const roles = formTexts(formData, 'roles');
  try {
    const invite = await (await getEngine()).identity.createInvite(actor, { email, roles });
    revalidatePath(PAGE);
    const link = `${requestOrigin(await headers())}${invite.path}`;
    return succeeded(
      state,
      `Invitation for ${invite.email} created. Copy the link and send it to them: it is shown only this once, and works once, for 7 days.`,
      {
        secret: link,
      },
    );
  } catch (error) {
    return refused(state, error, { email, roles: roles.join(',') });
  }
}

export async function setRolesAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await admin();
  const roles = formTexts(formData, 'roles');
  try {
    await (await getEngine()).identity.setRoles(actor, formId(formData, 'userId') ?? 0, roles);
  } catch (error) {
    return refused(state, error);
  }
  revalidatePath(PAGE);
  return succeeded(state, 'Roles saved.');
}

/** Saves the spec's user fields of one account: the inputs the form posted, each refusal next to its input. */
export async function setUserFieldsAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await admin();
  const engine = await getEngine();
  const values: Record<string, string> = {};
  for (const field of engine.model.users.fields) {
    const name = `${USER_FIELD_PREFIX}${field.name}`;
    if (formData.has(name)) values[field.name] = formText(formData, name);
  }
  const sent = Object.fromEntries(Object.entries(values).map(([name, value]) => [`${USER_FIELD_PREFIX}${name}`, value]));
  try {
    await engine.identity.setUserFields(actor, formId(formData, 'userId') ?? 0, values);
  } catch (error) {
    const result = refused(state, error, sent);
    // Field errors name the fields; the inputs carry the prefix.
    return {
      ...result,
      fieldErrors: Object.fromEntries(
        Object.entries(result.fieldErrors).map(([name, message]) => [`${USER_FIELD_PREFIX}${name}`, message]),
      ),
    };
  }
  revalidatePath(PAGE);
  return succeeded(state, 'Fields saved.');
}

export async function disableUserAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await admin();
  if (!confirmed(formData)) return confirmationNeeded(state);
  try {
    await (await getEngine()).identity.disableUser(actor, formId(formData, 'userId') ?? 0);
  } catch (error) {
    return refused(state, error);
  }
  revalidatePath(PAGE);
  return succeeded(state, 'Disabled: their sessions ended and their API tokens were revoked.');
}

export async function enableUserAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await admin();
  try {
    await (await getEngine()).identity.enableUser(actor, formId(formData, 'userId') ?? 0);
  } catch (error) {
    return refused(state, error);
  }
  revalidatePath(PAGE);
  return succeeded(state, 'Enabled.');
}

export async function revokeInviteAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const actor = await admin();
  if (!confirmed(formData)) return confirmationNeeded(state);
  try {
    await (await getEngine()).identity.revokeInvite(actor, formId(formData, 'inviteId') ?? 0);
  } catch (error) {
    return refused(state, error);
  }
  revalidatePath(PAGE);
  return succeeded(state, 'Invitation withdrawn.');
}
