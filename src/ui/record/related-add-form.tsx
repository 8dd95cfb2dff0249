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
import type { ReplyMode } from './related-section-view';
import { ReplyModeSwitch, SentAs } from './reply-mode';

/**
 * The form adding a record in place under the record shown (the reply box of a thread). A plain
 * form posting to a server action, so it works without JavaScript (the action redirects back);
 * with it, the action refreshes the page in place and the form starts empty again. Beside the
 * plain submit, one button per transition the reply may take with it.
 */
export function RelatedAddForm({
  id,
  action,
  initialValues,
  fields,
  checks,
  submitLabel,
  options,
  title,
  body,
  mode,
  notice,
}: {
  /** The form's element id, which the thread's "Write a reply" link jumps to. */
  id?: string;
  action: RecordFormAction;
  initialValues: Readonly<Record<string, string>>;
  fields: readonly FormFieldDescriptor[];
  checks: FormChecks;
  submitLabel: string;
  options: readonly { readonly name: string; readonly label: string }[];
  title: string;
  /** The field holding a thread's message: a reply shows at once, before the server has it (src/ui/loading/pending-replies.tsx). */
  body?: string | null;
  /** Two ways of writing (a reply, an internal note) instead of the marker's checkbox. */
  mode?: ReplyMode | null;
  /** Said before one writes: what the reply will not do, and why (src/server/related-sections.ts). */
  notice?: string | null;
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
    // `group/reply`: the note mode's marks follow its radio by CSS alone, so they work before (and without) JavaScript.
    <form id={id} action={formAction} aria-label={title} className="group/reply scroll-mt-6 space-y-4">
      {body ? <PendingReply field={body} failed={state.message !== null ? state.values[body] : undefined} /> : null}
      {mode ? <ReplyModeSwitch mode={mode} replyLabel={submitLabel} note={shown.values[mode.field] === 'true'} /> : null}
      {scripted ? <input type="hidden" name={SCRIPTED_INPUT} value="1" /> : null}
      {notice ? (
        <p role="note" className="rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 text-sm text-zinc-700">
          {notice}
        </p>
      ) : null}
      {state.message ? <Alert title="Not saved.">{state.message}</Alert> : null}
      <div className={mode ? 'group-has-[[data-note-mode]:checked]/reply:[&_textarea]:bg-amber-50' : undefined}>
        <CheckedFields key={state.attempt} fields={fields} checks={checks} state={shown} />
      </div>
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
          {mode ? <SentAs reply={submitLabel} note={`Add ${mode.label.toLowerCase()}`} /> : submitLabel}
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
            {mode ? (
              <SentAs reply={option.label} note={option.label.replace(submitLabel, `Add ${mode.label.toLowerCase()}`)} />
            ) : (
              option.label
            )}
          </button>
        ))}
      </div>
    </form>
  );
}
