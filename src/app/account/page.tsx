import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { mayReadDocumentation } from '@/engine/spec/screens/documentation';
import { changePasswordAction, createTokenAction, revokeTokenAction, updateNameAction } from '@/server/actions/account';
import { MIN_PASSWORD_LENGTH } from '@/server/auth-input';
import { getEngine } from '@/server/engine';
import { chooseThemeAction } from '@/server/actions/theme';
import { requireActor } from '@/server/session';
import { themeFor } from '@/server/theme';
import { chooseTimeZoneAction } from '@/server/actions/time-zone';
import { viewerZone } from '@/server/viewer-zone';
import { timeZoneChoices } from '@/engine/time/zone';
import { ZoneForm } from '@/ui/time/zone-form';
import { Badge } from '@/ui/badge';
import { Card } from '@/ui/card';
import { ConfirmButtonForm } from '@/ui/confirm/confirm-button-form';
import { PasswordForm, ProfileForm, TokenForm } from '@/ui/forms/account-forms';
import { TOKEN_LIFETIMES } from '@/ui/forms/account-state';
import { formatDateTime } from '@/ui/format';
import { PageHeader } from '@/ui/page-header';
import { TableScroll } from '@/ui/table-scroll';
import { ThemeToggle } from '@/ui/theme/theme-toggle';
import { saveNotifyPreferencesAction } from '@/server/actions/notify-preferences';
import { NotificationPreferencesForm } from '@/ui/inbox/notification-preferences-form';

export const metadata: Metadata = { title: 'Your account' };

function Time({ value, empty, zone }: { value: Date | null; empty: string; zone: string }) {
  const formatted = value ? formatDateTime(value, zone) : null;
  return formatted ? <time dateTime={formatted.iso}>{formatted.text}</time> : <span className="text-zinc-500">{empty}</span>;
}

function Section({ id, title, description, children }: { id: string; title: string; description: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
      <div>
        <h2 id={id} className="text-base font-semibold text-zinc-900">
          {title}
        </h2>
        <div className="mt-1 text-sm text-zinc-600">{description}</div>
      </div>
      <Card className="min-w-0 p-5">{children}</Card>
    </section>
  );
}

const th = 'px-4 py-2.5 text-left text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase';
// Below `sm` each token is a card: its cells stack, each date with its label, instead of scrolling sideways.
const td = 'block px-4 py-1 first:pt-3 last:pb-3 sm:table-cell sm:py-3 sm:whitespace-nowrap';

/** The column's name before a cell's value, on a phone only (the table's header says it on wider screens). */
function CellLabel({ children }: { children: string }) {
  return <span className="text-zinc-500 sm:hidden">{children}: </span>;
}

/** The signed-in user's own account: name, password and personal API tokens. */
export default async function AccountPage({ searchParams }: { searchParams: Promise<{ saved?: string | string[] }> }) {
  const actor = await requireActor('/account');
  const engine = await getEngine();
  const { saved } = await searchParams;
  const notifications = engine.model.notifications;
  const kinds =
    notifications.length === 0
      ? []
      : (await engine.notifications.preferences(actor)).map((choice) => ({
          ...choice,
          channels: notifications.find((n) => n.name === choice.kind)?.channels ?? [],
        }));
  const tokens = await engine.identity.listApiTokens(actor.userId);
  const theme = await themeFor(actor);
  const zone = await viewerZone();
  const { timeZone: chosenZone } = await engine.identity.preferencesOf(actor.userId);
  const now = Date.now();

  return (
    <div className="space-y-10">
      <PageHeader title="Your account" description={`Signed in as ${actor.email}.`} />

      <Section id="profile-heading" title="Profile" description="How you appear to others in this application.">
        <ProfileForm action={updateNameAction} name={actor.name} />
      </Section>

      <Section
        id="appearance-heading"
        title="Appearance"
        description="Light or dark pages, or as this device is set. Kept with your account, so it follows you to every device you sign in on."
      >
        <ThemeToggle theme={theme} action={chooseThemeAction} />
      </Section>

      <Section
        id="time-zone-heading"
        title="Time zone"
        description="Times are shown and typed in this zone; they are stored in UTC, and the API and CSV files keep ISO 8601 with the offset. Automatic follows the zone of the browser you use."
      >
        <ZoneForm chosen={chosenZone} zones={timeZoneChoices()} current={zone} action={chooseTimeZoneAction} />
      </Section>

      {kinds.length > 0 ? (
        <Section
          id="notifications-heading"
          title="Notifications"
          description={
            <>
              What you are told, and how: in the app (the bell and your{' '}
              <Link href="/inbox" className="text-accent-700 underline">
                inbox
              </Link>
              ) and by e-mail, each one or in one mail a day. Watch or mute a record on its page.
            </>
          }
        >
          <NotificationPreferencesForm kinds={kinds} saved={saved === 'notifications'} action={saveNotifyPreferencesAction} />
        </Section>
      ) : null}

      <Section
        id="password-heading"
        title="Password"
        description="Changing it signs out every other session of yours; this one stays signed in."
      >
        <PasswordForm action={changePasswordAction} minLength={MIN_PASSWORD_LENGTH} />
      </Section>

      <Section
        id="tokens-heading"
        title="API tokens"
        description={
          <>
            Personal tokens for scripts and tools: send one as{' '}
            <code className="rounded bg-zinc-100 px-1">Authorization: Bearer &lt;token&gt;</code> to the{' '}
            {/* The reference page is for the documentation's roles; every API client may read the document itself. */}
            {mayReadDocumentation(engine.model.documentation, actor.roles) ? (
              <Link href="/api/docs" className="text-accent-700 underline">
                API
              </Link>
            ) : (
              <>
                API (described by{' '}
                <a href="/api/v1/openapi.json" className="text-accent-700 underline">
                  its OpenAPI document
                </a>
                )
              </>
            )}
            . A token acts as you, with your roles. It is shown once; only a hash of it is kept.
          </>
        }
      >
        <div className="space-y-6">
          <TokenForm action={createTokenAction} lifetimes={TOKEN_LIFETIMES.map(({ value, label }) => ({ value, label }))} />
          {tokens.length > 0 ? (
            <div className="-mx-5 -mb-5 border-t border-zinc-200">
              <TableScroll label="Your API tokens">
                <table className="block min-w-full divide-y divide-zinc-200 text-sm sm:table">
                  <caption className="sr-only">Your API tokens</caption>
                  <thead className="hidden bg-zinc-50 sm:table-header-group">
                    <tr>
                      <th scope="col" className={th}>
                        Name
                      </th>
                      <th scope="col" className={th}>
                        Created
                      </th>
                      <th scope="col" className={th}>
                        Last used
                      </th>
                      <th scope="col" className={th}>
                        Expires
                      </th>
                      <th scope="col" className={th}>
                        Status
                      </th>
                      <th scope="col" className={th}>
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody className="block divide-y divide-zinc-100 sm:table-row-group">
                    {tokens.map((token) => {
                      const expired = token.expiresAt !== null && token.expiresAt.getTime() <= now;
                      const active = token.revokedAt === null && !expired;
                      return (
                        <tr key={token.id} data-token={token.name} className="block sm:table-row">
                          <td className={`${td} font-medium text-zinc-900`}>{token.name}</td>
                          <td className={`${td} text-zinc-600`}>
                            <CellLabel>Created</CellLabel>
                            <Time zone={zone} value={token.createdAt} empty="" />
                          </td>
                          <td className={`${td} text-zinc-600`}>
                            <CellLabel>Last used</CellLabel>
                            <Time zone={zone} value={token.lastUsedAt} empty="Never" />
                          </td>
                          <td className={`${td} text-zinc-600`}>
                            <CellLabel>Expires</CellLabel>
                            <Time zone={zone} value={token.expiresAt} empty="Never" />
                          </td>
                          <td className={td}>
                            {token.revokedAt ? (
                              <Badge>Revoked</Badge>
                            ) : expired ? (
                              <Badge tone="warning">Expired</Badge>
                            ) : (
                              <Badge tone="success">Active</Badge>
                            )}
                          </td>
                          <td className={`${td} sm:text-right`}>
                            {active ? (
                              <ConfirmButtonForm
                                action={revokeTokenAction}
                                fields={{ id: token.id }}
                                pendingLabel="Revoking…"
                                label={`Revoke the token ${token.name}`}
                                cancelHref="/account"
                                question={{
                                  title: `Revoke the token “${token.name}”?`,
                                  description:
                                    'Whatever uses it is refused from now on. A revoked token cannot be restored: create a new one if it is needed again.',
                                  confirmLabel: 'Revoke token',
                                }}
                              >
                                Revoke
                              </ConfirmButtonForm>
                            ) : null}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableScroll>
            </div>
          ) : null}
        </div>
      </Section>
    </div>
  );
}
