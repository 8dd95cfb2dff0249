'use client';

import { useActionState, useEffect, useState } from 'react';
import { FieldInput } from '../forms/field-input';
import type { RecordFormAction } from '../forms/record-form';
import { type FormFieldDescriptor, VERSION_INPUT } from '../forms/state';
import { SubmitButton } from '../forms/submit-button';
import { SCRIPTED_INPUT } from './related-state';

/** The words a refused in-place edit shows: the field's own error, the form's message, or the stale notice. */
function refusal(state: { fieldErrors: Readonly<Record<string, string>>; message: string | null; stale?: unknown }, name: string) {
  if (state.stale) return 'Someone changed this record meanwhile: the page now shows it; try again if it still needs changing.';
  return state.fieldErrors[name] ?? state.message;
}

/**
 * One field edited where it is shown on the record page: a native disclosure holding a form that
 * posts that field and the record's version alone (so only it is written, and a concurrent change
 * is caught). It works without JavaScript (the action redirects back); with it, the page refreshes
 * in place and the disclosure closes.
 */
export function FieldEdit({
  action,
  field,
  value,
  version,
}: {
  action: RecordFormAction;
  field: FormFieldDescriptor;
  value: string;
  version: number;
}) {
  const [state, formAction] = useActionState(action, { values: {}, fieldErrors: {}, message: null, attempt: 0 });
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const error = refusal(state, field.name) ?? undefined;
  return (
    // Keyed by the attempt: a saved edit closes (and a refused one stays open, showing why).
    <details key={state.attempt} open={error !== undefined || undefined} className="group/edit mt-1">
      <summary className="inline-flex cursor-pointer list-none text-xs font-medium text-accent-700 hover:underline [&::-webkit-details-marker]:hidden">
        Change<span className="sr-only"> {field.label}</span>
      </summary>
      <form action={formAction} className="mt-2 space-y-2">
        {scripted ? <input type="hidden" name={SCRIPTED_INPUT} value="1" /> : null}
        <input type="hidden" name={VERSION_INPUT} value={state.version ?? version} />
        <FieldInput field={field} value={state.values[field.name] ?? value} error={error} idPrefix="change" />
        <SubmitButton variant="secondary" pendingLabel="Saving…">
          Save
        </SubmitButton>
      </form>
    </details>
  );
}

/** "Assign to me": the user field set to the viewer in one press, version-checked like any edit. */
export function AssignToMe({
  action,
  field,
  label,
  userId,
  version,
}: {
  action: RecordFormAction;
  field: string;
  label: string;
  userId: number;
  version: number;
}) {
  const [state, formAction] = useActionState(action, { values: {}, fieldErrors: {}, message: null, attempt: 0 });
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const error = refusal(state, field);
  return (
    <form action={formAction} className="mt-1">
      {scripted ? <input type="hidden" name={SCRIPTED_INPUT} value="1" /> : null}
      <input type="hidden" name={VERSION_INPUT} value={state.version ?? version} />
      <input type="hidden" name={field} value={userId} />
      <SubmitButton variant="secondary" pendingLabel="Assigning…" aria-label={`Assign to me as ${label}`} className="h-7 px-2 text-xs">
        Assign to me
      </SubmitButton>
      {error ? (
        <p role="alert" className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </form>
  );
}
