'use client';

import { useActionState } from 'react';
import { Alert } from '../alert';
import { cn } from '../cn';
import type { ConfirmQuestion } from '../confirm/confirm-input';
import { ConfirmPanel } from '../confirm/confirm-panel';
import { ConfirmSubmit } from '../confirm/confirm-submit';
import { FieldInput, inputClass } from '../forms/field-input';
import { type FormFieldDescriptor, VERSION_INPUT } from '../forms/state';
import { SubmitButton } from '../forms/submit-button';
import { COMMENT_INPUT, initialTransitionFormState, type TransitionFormState } from './transition-state';

/**
 * One transition as a form: a button, and when the transition needs them, the inputs for the
 * fields it requires and a comment. A plain <form> posting to a server action, so it works
 * without JavaScript; the version the user saw goes with it. A refusal is shown in place,
 * keeping what was typed. A transition that cannot be undone asks first (in a dialog, or by the
 * server's question in place of the button without JavaScript).
 */
export function TransitionForm({
  action,
  name,
  label,
  version,
  variant,
  fields,
  comment,
  hint,
  question,
  cancelHref,
}: {
  action: (state: TransitionFormState, formData: FormData) => Promise<TransitionFormState>;
  name: string;
  label: string;
  version: number;
  variant: 'primary' | 'secondary';
  /** Fields to fill in with the transition (required by it, empty now). */
  fields: readonly FormFieldDescriptor[];
  comment?: 'required' | 'optional';
  /** Why the transition needs the inputs ("Needs an assignee."). */
  hint?: string;
  /** What to ask before a transition into a final state ("Close ticket #12?"); none for the others. */
  question?: ConfirmQuestion | null;
  /** The record's page: Cancel on the server's question goes back to it. */
  cancelHref: string;
}) {
  const [state, formAction] = useActionState(action, initialTransitionFormState);
  const boxed = fields.length > 0 || comment !== undefined;
  const commentId = `transition-${name}-comment`;
  const commentError = state.fieldErrors[COMMENT_INPUT];
  const commentValue = state.values[COMMENT_INPUT] ?? '';
  const commentBox = (
    <textarea
      key={state.attempt}
      id={commentId}
      name={COMMENT_INPUT}
      rows={2}
      required={comment === 'required'}
      maxLength={10_000}
      defaultValue={commentValue}
      aria-invalid={commentError ? true : undefined}
      aria-describedby={commentError ? `${commentId}-error` : undefined}
      className={cn(inputClass, 'text-sm')}
    />
  );

  return (
    <form
      action={formAction}
      aria-label={label}
      data-transition={name}
      className={cn('space-y-3', boxed && 'rounded-md border border-zinc-200 bg-zinc-50/60 p-3')}
    >
      <input type="hidden" name={VERSION_INPUT} value={version} />
      {hint && fields.length > 0 && Object.keys(state.fieldErrors).length === 0 ? <p className="text-xs text-zinc-500">{hint}</p> : null}
      {fields.map((field) => (
        <FieldInput
          key={`${field.name}-${state.attempt}`}
          field={{ ...field, required: true }}
          value={state.values[field.name] ?? ''}
          error={state.fieldErrors[field.name]}
        />
      ))}
      {comment === 'required' ? (
        <div>
          <label htmlFor={commentId} className="mb-1 block text-sm font-medium text-zinc-800">
            Comment
          </label>
          {commentBox}
          {commentError ? (
            <p id={`${commentId}-error`} className="mt-1 text-sm text-red-600">
              {commentError}
            </p>
          ) : null}
        </div>
      ) : comment === 'optional' ? (
        <details open={commentValue !== '' || Boolean(commentError)} className="group text-sm">
          <summary className="cursor-pointer text-zinc-600 select-none hover:text-zinc-900">Add a comment</summary>
          <div className="mt-2">
            <label htmlFor={commentId} className="sr-only">
              Comment
            </label>
            {commentBox}
            {commentError ? (
              <p id={`${commentId}-error`} className="mt-1 text-sm text-red-600">
                {commentError}
              </p>
            ) : null}
          </div>
        </details>
      ) : null}
      {state.message ? (
        <div>
          <Alert title={`“${label}” was not taken.`}>
            <p>{state.message}</p>
            {state.reloadHref ? (
              <p className="mt-1">
                <a href={state.reloadHref} className="font-medium underline underline-offset-2">
                  Reload
                </a>
              </p>
            ) : null}
          </Alert>
        </div>
      ) : null}
      <div className="[&>button]:w-full">
        {!question ? (
          <SubmitButton variant={variant} pendingLabel={`${label}…`}>
            {label}
          </SubmitButton>
        ) : state.confirm ? (
          <ConfirmPanel question={question} cancelHref={cancelHref} />
        ) : (
          <ConfirmSubmit question={question} variant={variant} pendingLabel={`${label}…`}>
            {label}
          </ConfirmSubmit>
        )}
      </div>
    </form>
  );
}
