'use client';

import { useActionState, useId, type ReactNode } from 'react';
import { Alert } from '../alert';
import type { ButtonVariant } from '../button';
import { cn } from '../cn';
import { CopyButton } from '../copy-button';
import { type AccountAction, type AccountFormState, initialAccountFormState, type RoleOption } from './account-state';
import { describedBy, FieldFrame, inputClass } from './field-input';
import { SubmitButton } from './submit-button';

/**
 * The small forms of the account and administration pages. Each is a real `<form>` posting to a
 * server action, so it works without JavaScript: the server renders the action's state.
 */

function useAccountForm(action: AccountAction) {
  return useActionState(action, initialAccountFormState);
}

/** The action's message: a confirmation, or why nothing changed. */
function Outcome({ state, id }: { state: AccountFormState; id: string }) {
  if (!state.message) return null;
  return (
    <Alert id={id} tone={state.ok ? 'info' : 'error'}>
      {state.message}
    </Alert>
  );
}

/** A secret shown once (an API token, an invitation link), in a block that selects whole and can be copied. */
export function SecretValue({ label, value }: { label: string; value: string }) {
  return (
    <div className="space-y-1.5">
      <p className="text-sm font-medium text-zinc-800">{label}</p>
      <div className="flex items-start gap-2">
        <pre className="min-w-0 flex-1 overflow-x-auto rounded-md bg-zinc-900 px-3 py-2 text-sm text-zinc-50 dark:bg-zinc-50 dark:text-zinc-800">
          <code data-secret className="select-all">
            {value}
          </code>
        </pre>
        <CopyButton text={value} />
      </div>
    </div>
  );
}

function TextField({
  name,
  label,
  state,
  type = 'text',
  autoComplete,
  required = true,
  help,
  minLength,
  maxLength,
  defaultValue,
}: {
  name: string;
  label: string;
  state: AccountFormState;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  required?: boolean;
  help?: string;
  minLength?: number;
  maxLength?: number;
  defaultValue?: string;
}) {
  const id = `${useId()}-${name}`;
  const error = state.fieldErrors[name];
  return (
    <FieldFrame id={id} label={label} required={required} help={help} error={error}>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        required={required}
        minLength={minLength}
        maxLength={maxLength}
        defaultValue={type === 'password' ? undefined : (state.values[name] ?? defaultValue ?? '')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, help, error)}
        className={inputClass}
      />
    </FieldFrame>
  );
}

function RoleCheckboxes({
  roles,
  checked,
  legend,
  error,
}: {
  roles: readonly RoleOption[];
  checked: readonly string[];
  legend: string;
  error?: string;
}) {
  const id = useId();
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium text-zinc-800">{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1.5">
        {roles.map((role) => (
          <label key={role.name} className="flex items-center gap-1.5 text-sm text-zinc-800" title={role.description}>
            <input
              type="checkbox"
              name="roles"
              value={role.name}
              defaultChecked={checked.includes(role.name)}
              className="size-4 rounded border-zinc-300 accent-accent-600"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
            {role.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export function ProfileForm({ action, name }: { action: AccountAction; name: string }) {
  const [state, formAction] = useAccountForm(action);
  return (
    <form action={formAction} className="space-y-4">
      <Outcome state={state} id="profile-message" />
      <div key={state.attempt}>
        <TextField name="name" label="Name" state={state} autoComplete="name" maxLength={200} defaultValue={name} />
      </div>
      <SubmitButton pendingLabel="Saving…">Save name</SubmitButton>
    </form>
  );
}

export function PasswordForm({ action, minLength }: { action: AccountAction; minLength: number }) {
  const [state, formAction] = useAccountForm(action);
  return (
    <form action={formAction} className="space-y-4">
      <Outcome state={state} id="password-message" />
      <div key={state.attempt} className="space-y-4">
        <TextField name="currentPassword" label="Current password" type="password" autoComplete="current-password" state={state} />
        <TextField
          name="newPassword"
          label="New password"
          type="password"
          autoComplete="new-password"
          minLength={minLength}
          help={`At least ${minLength} characters.`}
          state={state}
        />
        <TextField
          name="confirmPassword"
          label="New password again"
          type="password"
          autoComplete="new-password"
          minLength={minLength}
          state={state}
        />
      </div>
      <SubmitButton pendingLabel="Changing…">Change password</SubmitButton>
    </form>
  );
}

export function TokenForm({ action, lifetimes }: { action: AccountAction; lifetimes: readonly { value: string; label: string }[] }) {
  const [state, formAction] = useAccountForm(action);
  const expiryId = `${useId()}-expiry`;
  return (
    <form action={formAction} className="space-y-4">
      <Outcome state={state} id="token-message" />
      {state.secret ? <SecretValue label="Your new API token" value={state.secret} /> : null}
      <div key={state.attempt} className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <TextField name="name" label="Token name" help="What uses it, e.g. “deploy script”." maxLength={100} state={state} />
        <FieldFrame id={expiryId} label="Expires after" required error={state.fieldErrors.expiry ?? state.fieldErrors.expiresAt}>
          <select id={expiryId} name="expiry" defaultValue={state.values.expiry ?? lifetimes[1]?.value} className={inputClass}>
            {lifetimes.map((l) => (
              <option key={l.value} value={l.value}>
                {l.label}
              </option>
            ))}
          </select>
        </FieldFrame>
      </div>
      <SubmitButton pendingLabel="Creating…">Create token</SubmitButton>
    </form>
  );
}

export function InviteForm({ action, roles }: { action: AccountAction; roles: readonly RoleOption[] }) {
  const [state, formAction] = useAccountForm(action);
  return (
    <form action={formAction} className="space-y-4">
      <Outcome state={state} id="invite-message" />
      {state.secret ? <SecretValue label="One-time invitation link" value={state.secret} /> : null}
      <div key={state.attempt} className="space-y-4">
        <TextField name="email" label="Email" type="email" autoComplete="off" maxLength={320} state={state} />
        <RoleCheckboxes roles={roles} checked={(state.values.roles ?? '').split(',')} legend="Roles" error={state.fieldErrors.roles} />
      </div>
      <SubmitButton pendingLabel="Creating…">Create invitation link</SubmitButton>
    </form>
  );
}

/** One user's roles, saved with their own button. */
export function RolesForm({
  action,
  userId,
  roles,
  current,
  label,
}: {
  action: AccountAction;
  userId: number;
  roles: readonly RoleOption[];
  current: readonly string[];
  /** Names the form for assistive technology ("Roles of ana@example.com"). */
  label: string;
}) {
  const [state, formAction] = useAccountForm(action);
  return (
    <form action={formAction} aria-label={label} className="space-y-1.5">
      <input type="hidden" name="userId" value={userId} />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1.5">
        {roles.map((role) => (
          <label key={role.name} className="flex items-center gap-1.5 text-sm text-zinc-800" title={role.description}>
            <input
              type="checkbox"
              name="roles"
              value={role.name}
              defaultChecked={current.includes(role.name)}
              className="size-4 rounded border-zinc-300 accent-accent-600"
            />
            {role.label}
          </label>
        ))}
        <SubmitButton variant="secondary" pendingLabel="Saving…">
          Save roles
        </SubmitButton>
      </div>
      {state.message ? (
        <p className={cn('text-xs', state.ok ? 'text-accent-700' : 'text-red-600')} role={state.ok ? 'status' : 'alert'}>
          {state.message}
        </p>
      ) : null}
    </form>
  );
}

/** A single button posting hidden values (disable, enable, revoke), with the outcome beside it. */
export function ButtonForm({
  action,
  fields,
  children,
  pendingLabel,
  variant = 'secondary',
  label,
}: {
  action: AccountAction;
  fields: Readonly<Record<string, string | number>>;
  children: string;
  pendingLabel?: string;
  variant?: ButtonVariant;
  label?: string;
}) {
  const [state, formAction] = useAccountForm(action);
  return (
    <form action={formAction} aria-label={label} className="inline-flex flex-col items-start gap-1">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <SubmitButton variant={variant} pendingLabel={pendingLabel}>
        {children}
      </SubmitButton>
      {state.message && !state.ok ? (
        <p className="text-xs text-red-600" role="alert">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}

/** The invited person's own account: name and password, the email is the invitation's. */
export function AcceptInviteForm({
  action,
  token,
  email,
  minLength,
  children,
}: {
  action: AccountAction;
  token: string;
  email: string;
  minLength: number;
  children?: ReactNode;
}) {
  const [state, formAction] = useAccountForm(action);
  const emailId = `${useId()}-email`;
  return (
    <form action={formAction} className="space-y-5">
      <Outcome state={state} id="invite-accept-message" />
      {children}
      <input type="hidden" name="token" value={token} />
      <div key={state.attempt} className="space-y-4">
        <FieldFrame id={emailId} label="Email" required={false}>
          <input
            id={emailId}
            type="email"
            value={email}
            readOnly
            autoComplete="username"
            className={cn(inputClass, 'bg-zinc-50 text-zinc-600')}
          />
        </FieldFrame>
        <TextField name="name" label="Name" autoComplete="name" maxLength={200} state={state} />
        <TextField
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          minLength={minLength}
          help={`At least ${minLength} characters.`}
          state={state}
        />
        <TextField name="confirm" label="Password again" type="password" autoComplete="new-password" minLength={minLength} state={state} />
      </div>
      <SubmitButton pendingLabel="Creating your account…">Create my account</SubmitButton>
    </form>
  );
}
