'use client';

import { useActionState } from 'react';
import type { ButtonVariant } from '../button';
import { type AccountAction, initialAccountFormState } from '../forms/account-state';
import type { ConfirmQuestion } from './confirm-input';
import { ConfirmPanel } from './confirm-panel';
import { ConfirmSubmit } from './confirm-submit';

/**
 * A single destructive button posting hidden values (disable a user, revoke a token), asked
 * about before it acts: in a dialog with JavaScript, by the server's answer without (the action
 * requires the confirmation field; see src/server/confirm.ts).
 */
export function ConfirmButtonForm({
  action,
  fields,
  children,
  question,
  pendingLabel,
  variant = 'danger',
  label,
  cancelHref,
}: {
  action: AccountAction;
  fields: Readonly<Record<string, string | number>>;
  children: string;
  question: ConfirmQuestion;
  pendingLabel?: string;
  variant?: ButtonVariant;
  /** Names the form for assistive technology ("Disable ana@example.com"). */
  label: string;
  /** The page itself: Cancel on the server's question goes back to it. */
  cancelHref: string;
}) {
  const [state, formAction] = useActionState(action, initialAccountFormState);
  return (
    <form action={formAction} aria-label={label} className="inline-flex flex-col items-start gap-1">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {state.confirm ? (
        <ConfirmPanel question={question} cancelHref={cancelHref} />
      ) : (
        <ConfirmSubmit question={question} variant={variant} pendingLabel={pendingLabel}>
          {children}
        </ConfirmSubmit>
      )}
      {state.message && !state.ok ? (
        <p className="text-xs text-red-600" role="alert">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
