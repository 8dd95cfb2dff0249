'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { Alert } from '../alert';
import { buttonClass } from '../button';
import { initialMessageFormState, type MessageFormState, VERSION_INPUT } from './state';
import { SubmitButton } from './submit-button';

/** Confirms a delete; the version makes sure the record is the one the user looked at. */
export function DeleteForm({
  action,
  version,
  submitLabel,
  cancelHref,
}: {
  action: (state: MessageFormState, formData: FormData) => Promise<MessageFormState>;
  version: number;
  submitLabel: string;
  cancelHref: string;
}) {
  const [state, formAction] = useActionState(action, initialMessageFormState);
  return (
    <form action={formAction} className="space-y-4">
      {state.message ? <Alert title="The record was not deleted.">{state.message}</Alert> : null}
      <input type="hidden" name={VERSION_INPUT} value={version} />
      <div className="flex items-center gap-3">
        <SubmitButton variant="danger" pendingLabel="Deleting…">
          {submitLabel}
        </SubmitButton>
        <Link href={cancelHref} className={buttonClass('ghost')}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
