'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import type { MessageFormState } from '@/ui/forms/state';
import { MIN_PASSWORD_LENGTH, safeNextPath } from '../auth-input';
import { getEngine } from '../engine';
import { asNinefoldError } from '../errors';
import { signInWithPassword, signOut } from '../session';

const BAD_CREDENTIALS = 'Email or password is incorrect.';

function text(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}

export async function signInAction(state: MessageFormState, formData: FormData): Promise<MessageFormState> {
  const email = text(formData, 'email').trim();
  const password = text(formData, 'password');
  const next = safeNextPath(text(formData, 'next'));
  const refused = { message: BAD_CREDENTIALS, values: { email }, attempt: state.attempt + 1 };
  if (email === '' || password === '' || email.length > 320 || password.length > 1000) return refused;
  if (!(await signInWithPassword(email, password))) return refused;
  redirect(next);
}

export async function signOutAction(): Promise<void> {
  await signOut();
  redirect('/sign-in');
}

const setupSchema = z
  .object({
    email: z.email('Enter a valid email address.').max(320),
    name: z.string().trim().min(1, 'Enter a name.').max(200, 'The name is too long (200 characters at most).'),
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`)
      .max(1000, 'The password is too long.'),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { message: 'The two passwords are not the same.', path: ['confirm'] });

/** Creates the first administrator, signs them in and goes home. Refused once any user exists. */
export async function setupAction(state: MessageFormState, formData: FormData): Promise<MessageFormState> {
  const engine = await getEngine();
  if (await engine.identity.hasUsers()) redirect('/sign-in');

  const raw = {
    email: text(formData, 'email').trim(),
    name: text(formData, 'name'),
    password: text(formData, 'password'),
    confirm: text(formData, 'confirm'),
  };
  const values = { email: raw.email, name: raw.name };
  const parsed = setupSchema.safeParse(raw);
  if (!parsed.success) {
    return { message: parsed.error.issues.map((i) => i.message).join(' '), values, attempt: state.attempt + 1 };
  }
  try {
    await engine.identity.createUser(
      { email: parsed.data.email, name: parsed.data.name, password: parsed.data.password, roles: ['admin'] },
      { onlyIfNoUsers: true },
    );
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known) throw error;
    return { message: known.message, values, attempt: state.attempt + 1 };
  }
  if (!(await signInWithPassword(parsed.data.email, parsed.data.password))) redirect('/sign-in');
  redirect('/');
}
