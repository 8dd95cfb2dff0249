import type { Metadata } from 'next';
import Link from 'next/link';
import { acceptInviteAction } from '@/server/actions/invite';
import { MIN_PASSWORD_LENGTH } from '@/server/auth-input';
import { getEngine } from '@/server/engine';
import { asNinefoldError } from '@/server/errors';
import { roleOptions } from '@/server/roles';
import { Alert } from '@/ui/alert';
import { AuthCard } from '@/ui/auth-card';
import { buttonClass } from '@/ui/button';
import { AcceptInviteForm } from '@/ui/forms/account-forms';

// The token is in the address: keep it out of Referer headers sent anywhere.
export const metadata: Metadata = { title: 'Invitation', referrer: 'no-referrer' };

/** Open to anyone holding the link: the invited person chooses a name and password, then is signed in. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const engine = await getEngine();
  let invite;
  try {
    invite = await engine.identity.inviteFor(token);
  } catch (error) {
    const known = asNinefoldError(error);
    if (known?.code !== 'NOT_FOUND') throw error;
    return (
      <AuthCard eyebrow={engine.model.title} title="This invitation cannot be used">
        <div className="space-y-5">
          <Alert>{known.message}</Alert>
          <Link href="/sign-in" className={buttonClass('primary', 'w-full')}>
            Go to sign in
          </Link>
        </div>
      </AuthCard>
    );
  }
  const labels = roleOptions(engine.model)
    .filter((r) => invite.roles.includes(r.name))
    .map((r) => r.label);
  return (
    <AuthCard
      eyebrow={engine.model.title}
      title="Create your account"
      description={labels.length > 0 ? `You are invited to join as ${labels.join(', ')}.` : 'You are invited to join.'}
    >
      <AcceptInviteForm action={acceptInviteAction} token={token} email={invite.email} minLength={MIN_PASSWORD_LENGTH} />
    </AuthCard>
  );
}
