import type { Metadata } from 'next';
import {
  disableUserAction,
  enableUserAction,
  inviteAction,
  revokeInviteAction,
  setRolesAction,
  setUserFieldsAction,
} from '@/server/actions/users';
import { getEngine } from '@/server/engine';
import { roleOptions } from '@/server/roles';
import { requireAdmin } from '@/server/session';
import { inputValue, userFieldInputs } from '@/server/user-field-inputs';
import { Badge } from '@/ui/badge';
import { Card } from '@/ui/card';
import { ConfirmButtonForm } from '@/ui/confirm/confirm-button-form';
import { ButtonForm, InviteForm, RolesForm } from '@/ui/forms/account-forms';
import { UserFieldsForm } from '@/ui/forms/user-fields-form';
import { viewerZone } from '@/server/viewer-zone';
import { formatDateTime } from '@/ui/format';
import { PageHeader } from '@/ui/page-header';
import { TableScroll } from '@/ui/table-scroll';

export const metadata: Metadata = { title: 'Users' };

const PAGE = '/admin/users';

function Time({ value, zone }: { value: Date; zone: string }) {
  const formatted = formatDateTime(value, zone);
  return formatted ? <time dateTime={formatted.iso}>{formatted.text}</time> : null;
}

const th = 'px-4 py-2.5 text-left text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase';
// Below `sm` each row is a card: its cells stack instead of scrolling sideways.
const td = 'block px-4 py-1.5 align-top first:pt-3 last:pb-3 sm:table-cell sm:py-3';
const table = 'block min-w-full divide-y divide-zinc-200 text-sm sm:table';
const thead = 'hidden bg-zinc-50 sm:table-header-group';
const tbody = 'block divide-y divide-zinc-100 sm:table-row-group';
const tr = 'block sm:table-row';

/** Administrators: every account with its roles and status, and one-time invitations. */
export default async function UsersPage() {
  const actor = await requireAdmin(PAGE);
  const engine = await getEngine();
  const zone = await viewerZone();
  const [users, invites] = await Promise.all([engine.identity.listUsers(actor), engine.identity.listInvites(actor)]);
  const roles = roleOptions(engine.model);
  // The spec's user fields (users.fields), when it has any: a column of small forms.
  const fieldInputs = await userFieldInputs(engine, actor, users);
  const roleLabel = (name: string) => roles.find((r) => r.name === name)?.label ?? name;

  return (
    <div className="space-y-10">
      <PageHeader title="Users" description="Who can sign in, and with which roles. New people join through a one-time invitation link." />

      <section aria-labelledby="invite-heading" className="grid gap-6 lg:grid-cols-[1fr_2fr]">
        <div>
          <h2 id="invite-heading" className="text-base font-semibold text-zinc-900">
            Invite someone
          </h2>
          <p className="mt-1 text-sm text-zinc-600">
            The link is shown once, here: send it to them yourself. It works once, for 7 days, and lets them choose their name and password.
          </p>
        </div>
        <Card className="p-5">
          <InviteForm action={inviteAction} roles={roles} />
        </Card>
      </section>

      {invites.length > 0 ? (
        <section aria-labelledby="pending-heading" className="space-y-3">
          <h2 id="pending-heading" className="text-base font-semibold text-zinc-900">
            Pending invitations
          </h2>
          <TableScroll label="Pending invitations" className="rounded-lg border border-zinc-200 bg-white shadow-xs">
            <table className={table}>
              <caption className="sr-only">Pending invitations</caption>
              <thead className={thead}>
                <tr>
                  <th scope="col" className={th}>
                    Email
                  </th>
                  <th scope="col" className={th}>
                    Roles
                  </th>
                  <th scope="col" className={th}>
                    Expires
                  </th>
                  <th scope="col" className={th}>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className={tbody}>
                {invites.map((invite) => (
                  <tr key={invite.id} className={tr}>
                    <td className={td}>{invite.email}</td>
                    <td className={td}>{invite.roles.map(roleLabel).join(', ') || 'none'}</td>
                    <td className={`${td} whitespace-nowrap text-zinc-600`}>
                      <Time value={invite.expiresAt} zone={zone} />
                    </td>
                    <td className={`${td} sm:text-right`}>
                      <ConfirmButtonForm
                        action={revokeInviteAction}
                        fields={{ inviteId: invite.id }}
                        variant="ghost"
                        pendingLabel="Withdrawing…"
                        label={`Withdraw the invitation of ${invite.email}`}
                        cancelHref={PAGE}
                        question={{
                          title: `Withdraw the invitation of ${invite.email}?`,
                          description: 'Its link stops working at once. To let them join later, create a new invitation.',
                          confirmLabel: 'Withdraw invitation',
                        }}
                      >
                        Withdraw
                      </ConfirmButtonForm>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      ) : null}

      <section aria-labelledby="users-heading" className="space-y-3">
        <h2 id="users-heading" className="text-base font-semibold text-zinc-900">
          Accounts <span className="font-normal text-zinc-500">({users.length})</span>
        </h2>
        {fieldInputs.some((f) => f.help) ? (
          <dl className="space-y-0.5 text-sm text-zinc-600">
            {fieldInputs
              .filter((f) => f.help)
              .map((f) => (
                <div key={f.name} className="flex flex-wrap gap-x-1.5">
                  <dt className="font-medium text-zinc-800">{f.label}:</dt>
                  <dd>{f.help}</dd>
                </div>
              ))}
          </dl>
        ) : null}
        <TableScroll label="Users" className="rounded-lg border border-zinc-200 bg-white shadow-xs">
          <table className={table}>
            <caption className="sr-only">Users</caption>
            <thead className={thead}>
              <tr>
                <th scope="col" className={th}>
                  User
                </th>
                <th scope="col" className={th}>
                  Roles
                </th>
                <th scope="col" className={th}>
                  Status
                </th>
                {fieldInputs.length > 0 ? (
                  <th scope="col" className={th}>
                    Fields
                  </th>
                ) : null}
                <th scope="col" className={th}>
                  Created
                </th>
                <th scope="col" className={th}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className={tbody}>
              {users.map((user) => {
                const self = user.id === actor.userId;
                return (
                  <tr key={user.id} data-user={user.email} className={tr}>
                    <td className={td}>
                      <div className="font-medium text-zinc-900">
                        {user.name}
                        {self ? <span className="ml-1.5 text-xs font-normal text-zinc-500">(you)</span> : null}
                      </div>
                      <div className="text-zinc-500">{user.email}</div>
                    </td>
                    <td className={td}>
                      <RolesForm
                        action={setRolesAction}
                        userId={user.id}
                        roles={roles}
                        current={user.roles}
                        label={`Roles of ${user.email}`}
                      />
                    </td>
                    <td className={td}>{user.disabled ? <Badge tone="warning">Disabled</Badge> : <Badge tone="success">Active</Badge>}</td>
                    {/* The status stays the third cell, next to the roles, where the browser tests read it. */}
                    {fieldInputs.length > 0 ? (
                      <td className={td}>
                        <UserFieldsForm
                          action={setUserFieldsAction}
                          userId={user.id}
                          fields={fieldInputs}
                          current={Object.fromEntries(Object.entries(user.fields).map(([name, value]) => [name, inputValue(value)]))}
                          label={`Fields of ${user.email}`}
                        />
                      </td>
                    ) : null}
                    <td className={`${td} whitespace-nowrap text-zinc-600`}>
                      <Time value={user.createdAt} zone={zone} />
                    </td>
                    <td className={`${td} sm:text-right`}>
                      {self ? null : user.disabled ? (
                        <ButtonForm
                          action={enableUserAction}
                          fields={{ userId: user.id }}
                          pendingLabel="Enabling…"
                          label={`Enable ${user.email}`}
                        >
                          Enable
                        </ButtonForm>
                      ) : (
                        <ConfirmButtonForm
                          action={disableUserAction}
                          fields={{ userId: user.id }}
                          pendingLabel="Disabling…"
                          label={`Disable ${user.email}`}
                          cancelHref={PAGE}
                          question={{
                            title: `Disable ${user.email}?`,
                            description:
                              'They are signed out everywhere at once and every API token of theirs is revoked for good. You can enable the account again later; the tokens stay revoked.',
                            confirmLabel: 'Disable account',
                          }}
                        >
                          Disable
                        </ConfirmButtonForm>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      </section>
    </div>
  );
}
