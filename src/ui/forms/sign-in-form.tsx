'use client';

import { useActionState } from 'react';
import { Alert } from '../alert';
import { FieldFrame, inputClass } from './field-input';
import type { MessageFormState } from './state';
import { initialMessageFormState } from './state';
import { SubmitButton } from './submit-button';

export function SignInForm({
  action,
  next,
}: {
  action: (state: MessageFormState, formData: FormData) => Promise<MessageFormState>;
  next: string;
}) {
  const [state, formAction] = useActionState(action, initialMessageFormState);
  // One message for both fields (it must not tell which was wrong), read out with either.
  const refused = state.message ? { 'aria-invalid': true, 'aria-describedby': 'sign-in-message' } : {};
  return (
    <form action={formAction} className="space-y-5">
      {state.message ? <Alert id="sign-in-message">{state.message}</Alert> : null}
      <div key={state.attempt} className="space-y-4">
        <FieldFrame id="sign-in-email" label="Email" required>
          <input
            id="sign-in-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            defaultValue={state.values.email ?? ''}
            {...refused}
            className={inputClass}
          />
        </FieldFrame>
        <FieldFrame id="sign-in-password" label="Password" required>
          <input
            id="sign-in-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            {...refused}
            className={inputClass}
          />
        </FieldFrame>
      </div>
      <input type="hidden" name="next" value={next} />
      <SubmitButton pendingLabel="Signing in…">Sign in</SubmitButton>
    </form>
  );
}
