import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { signInAction } from '@/server/actions/auth';
import { safeNextPath } from '@/server/auth-input';
import { getEngine } from '@/server/engine';
import { currentActor } from '@/server/session';
import { AuthCard } from '@/ui/auth-card';
import { SignInForm } from '@/ui/forms/sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next: rawNext } = await searchParams;
  const next = safeNextPath(Array.isArray(rawNext) ? rawNext[0] : rawNext);
  if (await currentActor()) redirect(next);
  const engine = await getEngine();
  if (!(await engine.identity.hasUsers())) redirect('/setup');
  return (
    <AuthCard eyebrow={engine.model.title} title="Sign in">
      <SignInForm action={signInAction} next={next} />
    </AuthCard>
  );
}
