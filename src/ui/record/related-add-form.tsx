'use client';

import { useActionState, useEffect, useState, type MouseEvent } from 'react';
import { Alert } from '../alert';
import { buttonClass } from '../button';
import { CheckedFields } from '../forms/checked-fields';
import type { RecordFormAction } from '../forms/record-form';
import type { FormFieldDescriptor, RecordFormState } from '../forms/state';
import type { FormChecks } from '../forms/validation';
import { PendingReply } from '../loading/pending-replies';
import { Spinner } from '../loading/spinner';
import { REPLY_WITH_INPUT, SCRIPTED_INPUT } from './related-state';

/**
 * The form adding a record in place under the record shown (the reply box of a thread). A plain
 * form posting to a server action, so it works without JavaScript (the action redirects back);
 * with it, the action refreshes the page in place and the form starts empty again. Beside the
 * plain submit, one button per transition the reply may take with it.
 */
export function RelatedAddForm({
  action,
  initialValues,
  fields,
  checks,
  submitLabel,
  options,
  title,
  body,
}: {
  action: RecordFormAction;
  initialValues: Readonly<Record<string, string>>;
  fields: readonly FormFieldDescriptor[];
  checks: FormChecks;
  submitLabel: string;
  options: readonly { readonly name: string; readonly label: string }[];
  title: string;
  /** The field holding a thread's message: a reply shows at once, before the server has it (src/ui/loading/pending-replies.tsx). */
  body?: string | null;
}) {
  const [state, formAction, pending] = useActionState(action, { values: {}, fieldErrors: {}, message: null, attempt: 0 });
  // Rendered once hydrated: the action then knows the page can refresh in place.
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const shown: RecordFormState = { ...state, values: { ...initialValues, ...state.values } };
  // While one is sent, further presses are ignored; the buttons stay focusable (disabled ones would drop the focus).
  const guard = (event: MouseEvent) => {
    if (pending) event.preventDefault();
  };
  return (
    <form action={formAction} aria-label={title} className="space-y-4">
      {body ? <PendingReply field={body} failed={state.message !== null ? state.values[body] : undefined} /> : null}
      {scripted ? <input type="hidden" name={SCRIPTED_INPUT} value="1" /> : null}
      {state.message ? <Alert title="Not saved.">{state.message}</Alert> : null}
      <CheckedFields key={state.attempt} fields={fields} checks={checks} state={shown} />
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="submit"
          name={REPLY_WITH_INPUT}
          value=""
          aria-disabled={pending || undefined}
          onClick={guard}
          className={buttonClass('primary', pending ? 'cursor-progress opacity-80' : undefined)}
        >
          {pending ? <Spinner /> : null}
          {submitLabel}
        </button>
        {options.map((option) => (
          <button
            key={option.name}
            type="submit"
            name={REPLY_WITH_INPUT}
            value={option.name}
            aria-disabled={pending || undefined}
            onClick={guard}
            className={buttonClass('secondary', pending ? 'cursor-progress opacity-80' : undefined)}
          >
            {option.label}
          </button>
        ))}
      </div>
    </form>
  );
}
