'use client';

import { useId, useRef } from 'react';
import { useFormStatus } from 'react-dom';
import { buttonClass, type ButtonVariant } from '../button';
import { CONFIRM_INPUT, CONFIRM_VALUE, type ConfirmQuestion } from './confirm-input';

/**
 * The submit button of a destructive form. With JavaScript it asks first, in a modal <dialog>
 * (focus kept inside, Cancel focused, Escape or Cancel closes it and focus returns to the
 * button); going ahead submits the form with the confirmation field. Without JavaScript it is a
 * plain submit without that field: the server asks back instead (see ConfirmPanel).
 */
export function ConfirmSubmit({ children, question, variant = 'danger', pendingLabel }: {
  children: string;
  question: ConfirmQuestion;
  variant?: ButtonVariant;
  pendingLabel?: string;
}) {
  const { pending } = useFormStatus();
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  return (
    <>
      <button
        ref={trigger}
        type="submit"
        disabled={pending}
        aria-disabled={pending}
        aria-haspopup="dialog"
        className={buttonClass(variant)}
        onClick={(event) => {
          event.preventDefault();
          dialog.current?.showModal();
          // The safe choice has the focus: Enter does not destroy anything by accident.
          cancel.current?.focus();
        }}
      >
        {pending ? (pendingLabel ?? children) : children}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-description`}
        onClose={() => trigger.current?.focus()}
        onClick={(event) => {
          // A click on the backdrop (the dialog box itself, outside its content) cancels.
          if (event.target === dialog.current) dialog.current.close();
        }}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg bg-white p-0 text-left text-zinc-900 shadow-xl ring-1 ring-zinc-200 backdrop:bg-black/50"
      >
        <div className="space-y-2 p-5">
          <h2 id={`${id}-title`} className="text-base font-semibold whitespace-normal text-zinc-900">
            {question.title}
          </h2>
          <p id={`${id}-description`} className="text-sm whitespace-normal text-zinc-700">
            {question.description}
          </p>
        </div>
        <div className="flex flex-wrap justify-end gap-2 rounded-b-lg border-t border-zinc-200 bg-zinc-50 px-5 py-3">
          <button ref={cancel} type="button" className={buttonClass('secondary')} onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" name={CONFIRM_INPUT} value={CONFIRM_VALUE} className={buttonClass('danger')} onClick={() => dialog.current?.close()}>
            {question.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
