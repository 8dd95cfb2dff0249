import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { setupAction } from '@/server/actions/auth';
import { MIN_PASSWORD_LENGTH } from '@/server/auth-input';
import { getEngine } from '@/server/engine';
import { AuthCard } from '@/ui/auth-card';
import { SetupForm } from '@/ui/forms/setup-form';

export const metadata: Metadata = { title: 'Set up' };

/** Only while the application has no users: the first account, an administrator. */
export default async function SetupPage() {
  await connection();
  const engine = await getEngine();
  if (await engine.identity.hasUsers()) redirect('/sign-in');
  return (
    <AuthCard
      eyebrow={engine.model.title}
      title="Create the administrator"
      description="The first account of this application. It can do everything. The setup code proves that you run the server: it is in the server's log."
    >
      <SetupForm action={setupAction} minPasswordLength={MIN_PASSWORD_LENGTH} />
    </AuthCard>
  );
}
