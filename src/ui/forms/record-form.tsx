'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { Alert } from '../alert';
import { buttonClass } from '../button';
import { CheckedFields } from './checked-fields';
import { ComputedValues, type ComputedValueView } from './computed-values';
import { StaleNoticeView } from './stale-notice';
import { type FormFieldDescriptor, type RecordFormState, SEEN_INPUT, VERSION_INPUT } from './state';
import { SubmitButton } from './submit-button';
import type { FormChecks } from './validation';

export type RecordFormAction = (state: RecordFormState, formData: FormData) => Promise<RecordFormState>;

/**
 * The create and edit form of every entity. It is a real `<form>` posting to a server action,
 * so it works before (or without) JavaScript: the server re-renders the page with the state
 * the action returned, and the inputs show `state.values`.
 */
export function RecordForm({
  action,
  initialState,
  fields,
  checks,
  version,
  seen,
  submitLabel,
  cancelHref,
  computed = [],
}: {
  action: RecordFormAction;
  initialState: RecordFormState;
  fields: readonly FormFieldDescriptor[];
  /** The server's rules for these fields, to check them in the browser as the user leaves each. */
  checks?: FormChecks;
  /** The version the edit was started from; absent for a new record. */
  version?: number;
  /** What the edit form shows of the record (see src/server/seen-values.ts), to tell what changed if it turns out stale. */
  seen?: string;
  submitLabel: string;
  cancelHref: string;
  /** Values the engine computes (read-only), shown after the inputs they are computed from. */
  computed?: readonly ComputedValueView[];
}) {
  const [state, formAction] = useActionState(action, initialState);
  // After a stale refusal: the current version, whose changes the notice shows.
  const currentVersion = state.version ?? version;
  const currentSeen = state.seen ?? seen;
  return (
    <form
      action={formAction}
      className="space-y-6"
      aria-describedby={state.message ? 'form-message' : state.stale ? 'stale-notice' : undefined}
    >
      {state.stale ? <StaleNoticeView id="stale-notice" notice={state.stale} /> : null}
      {state.message ? (
        <Alert id="form-message" title="The record was not saved.">
          {state.message}
        </Alert>
      ) : null}
      <CheckedFields key={state.attempt} fields={fields} checks={checks} state={state} />
      <ComputedValues values={computed} />
      {currentVersion !== undefined ? <input key={`v${state.attempt}`} type="hidden" name={VERSION_INPUT} value={currentVersion} /> : null}
      {currentSeen !== undefined ? <input key={`s${state.attempt}`} type="hidden" name={SEEN_INPUT} value={currentSeen} /> : null}
      <div className="flex items-center gap-3 border-t border-zinc-200 pt-5">
        <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
        <Link href={cancelHref} className={buttonClass('ghost')}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
