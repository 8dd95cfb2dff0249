'use server';

import { redirect } from 'next/navigation';
import type { AccountFormState } from '@/ui/forms/account-state';
import { failed, formText, refused } from '../account-forms';
import { getEngine } from '../engine';
import { signInWithPassword } from '../session';

/** Creates the invited account, signs it in and goes home. Open to anyone who has the link. */
export async function acceptInviteAction(state: AccountFormState, formData: FormData): Promise<AccountFormState> {
  const token = formText(formData, 'token');
  const name = formText(formData, 'name');
  const password = formText(formData, 'password');
  if (password !== formText(formData, 'confirm')) {
    return failed(state, 'Check the fields marked below.', { confirm: 'The two passwords are not the same.' }, { name });
  }
  let email: string;
  try {
    email = (await (await getEngine()).identity.acceptInvite(token, { name, password })).email;
  } catch (error) {
    return refused(state, error, { name });
  }
  try {
    await signInWithPassword(email, password);
  } catch {
    // Throttled (the address failed too often meanwhile): the account exists, sign in later.
    redirect('/sign-in');
  }
  redirect('/');
}
