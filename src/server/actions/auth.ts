'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import type { MessageFormState } from '@/ui/forms/state';
import { MIN_PASSWORD_LENGTH, safeNextPath } from '../auth-input';
import { getEngine } from '../engine';
import { asNinefoldError } from '../errors';
import { requestClientIp, signInWithPassword, signOut } from '../session';

const BAD_CREDENTIALS = 'Email or password is incorrect.';

function text(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}

export async function signInAction(state: MessageFormState, formData: FormData): Promise<MessageFormState> {
  const email = text(formData, 'email').trim();
  const password = text(formData, 'password');
  const next = safeNextPath(text(formData, 'next'));
  const refused = (message: string) => ({ message, values: { email }, attempt: state.attempt + 1 });
  if (email === '' || password === '' || email.length > 320 || password.length > 1000) return refused(BAD_CREDENTIALS);
  try {
    // The engine throttles per account and per address, as for the REST door.
    await signInWithPassword(email, password);
  } catch (error) {
    const known = asNinefoldError(error);
    // "Too many sign-in attempts. Try again in N minutes." A server action answers 200 whatever
    // happens (Next gives it no status or headers of its own); the REST door sends 429 + Retry-After.
    if (known?.code === 'RATE_LIMITED') return refused(known.message);
    if (known?.code === 'UNAUTHENTICATED') return refused(BAD_CREDENTIALS);
    throw error;
  }
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
    setupCode: z.string().trim().min(1, "Enter the setup code from the server's log.").max(40, 'The setup code is not correct.'),
  })
  .refine((v) => v.password === v.confirm, { message: 'The two passwords are not the same.', path: ['confirm'] });

/** Creates the first administrator (with the setup code from the log), signs them in and goes home. Refused once any user exists. */
export async function setupAction(state: MessageFormState, formData: FormData): Promise<MessageFormState> {
  const engine = await getEngine();
  if (await engine.identity.hasUsers()) redirect('/sign-in');

  const raw = {
    email: text(formData, 'email').trim(),
    name: text(formData, 'name'),
    password: text(formData, 'password'),
    confirm: text(formData, 'confirm'),
    setupCode: text(formData, 'setupCode'),
  };
  const values = { email: raw.email, name: raw.name };
  const parsed = setupSchema.safeParse(raw);
  if (!parsed.success) {
    return { message: parsed.error.issues.map((i) => i.message).join(' '), values, attempt: state.attempt + 1 };
  }
  try {
    // Only with the one-time code from the server's log (engine/identity/setup-code.ts), throttled per address.
    await engine.identity.createFirstAdmin(
      { email: parsed.data.email, name: parsed.data.name, password: parsed.data.password },
      parsed.data.setupCode,
      { ip: await requestClientIp() },
    );
  } catch (error) {
    const known = asNinefoldError(error);
    if (!known) throw error;
    return { message: known.message, values, attempt: state.attempt + 1 };
  }
  try {
    await signInWithPassword(parsed.data.email, parsed.data.password);
  } catch {
    redirect('/sign-in');
  }
  redirect('/');
}
