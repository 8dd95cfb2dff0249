'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { Alert } from '../alert';
import { buttonClass } from '../button';
import { FieldInput } from './field-input';
import { type FormFieldDescriptor, type RecordFormState, VERSION_INPUT } from './state';
import { SubmitButton } from './submit-button';

export type RecordFormAction = (state: RecordFormState, formData: FormData) => Promise<RecordFormState>;

/**
 * The create and edit form of every entity. It is a real `<form>` posting to a server action,
 * so it works before (or without) JavaScript: the server re-renders the page with the state
 * the action returned, and the inputs show `state.values`.
 */
export function RecordForm({ action, initialState, fields, version, submitLabel, cancelHref }: {
  action: RecordFormAction;
  initialState: RecordFormState;
  fields: readonly FormFieldDescriptor[];
  /** The version the edit was started from; absent for a new record. */
  version?: number;
  submitLabel: string;
  cancelHref: string;
}) {
  const [state, formAction] = useActionState(action, initialState);
  const firstError = fields.find((field) => state.fieldErrors[field.name])?.name;
  return (
    <form action={formAction} className="space-y-6" aria-describedby={state.message ? 'form-message' : undefined}>
      {state.message ? (
        <Alert id="form-message" title="The record was not saved.">
          {state.message}
        </Alert>
      ) : null}
      <div key={state.attempt} className="space-y-5">
        {fields.map((field) => (
          <FieldInput
            key={field.name}
            field={field}
            value={state.values[field.name] ?? ''}
            error={state.fieldErrors[field.name]}
            autoFocus={field.name === firstError}
          />
        ))}
      </div>
      {version !== undefined ? <input type="hidden" name={VERSION_INPUT} value={version} /> : null}
      <div className="flex items-center gap-3 border-t border-zinc-200 pt-5">
        <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
        <Link href={cancelHref} className={buttonClass('ghost')}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
