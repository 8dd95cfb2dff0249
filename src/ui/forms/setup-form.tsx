'use client';

import { useActionState } from 'react';
import { Alert } from '../alert';
import { FieldFrame, inputClass } from './field-input';
import { initialMessageFormState, type MessageFormState } from './state';
import { SubmitButton } from './submit-button';

/** The first administrator's account: only offered while the application has no users. */
export function SetupForm({
  action,
  minPasswordLength,
}: {
  action: (state: MessageFormState, formData: FormData) => Promise<MessageFormState>;
  minPasswordLength: number;
}) {
  const [state, formAction] = useActionState(action, initialMessageFormState);
  // The message says what to fix (it may name several fields): every field points at it.
  const message = state.message ? 'setup-message' : undefined;
  return (
    <form action={formAction} className="space-y-5">
      {state.message ? <Alert id="setup-message">{state.message}</Alert> : null}
      <div key={state.attempt} className="space-y-4">
        <FieldFrame
          id="setup-code"
          label="Setup code"
          required
          help="In the server's log, on the line that starts “Ninefold: no administrator yet”."
        >
          <input
            id="setup-code"
            name="setupCode"
            type="text"
            autoComplete="off"
            spellCheck={false}
            required
            maxLength={40}
            aria-describedby={message ? `setup-code-help ${message}` : 'setup-code-help'}
            className={inputClass}
          />
        </FieldFrame>
        <FieldFrame id="setup-email" label="Email" required>
          <input
            id="setup-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            defaultValue={state.values.email ?? ''}
            aria-describedby={message}
            className={inputClass}
          />
        </FieldFrame>
        <FieldFrame id="setup-name" label="Name" required>
          <input
            id="setup-name"
            name="name"
            type="text"
            autoComplete="name"
            required
            maxLength={200}
            defaultValue={state.values.name ?? ''}
            aria-describedby={message}
            className={inputClass}
          />
        </FieldFrame>
        <FieldFrame id="setup-password" label="Password" required help={`At least ${minPasswordLength} characters.`}>
          <input
            id="setup-password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={minPasswordLength}
            aria-describedby={message ? `setup-password-help ${message}` : 'setup-password-help'}
            className={inputClass}
          />
        </FieldFrame>
        <FieldFrame id="setup-confirm" label="Password again" required>
          <input
            id="setup-confirm"
            name="confirm"
            type="password"
            autoComplete="new-password"
            required
            minLength={minPasswordLength}
            aria-describedby={message}
            className={inputClass}
          />
        </FieldFrame>
      </div>
      <SubmitButton pendingLabel="Creating…">Create administrator</SubmitButton>
    </form>
  );
}
