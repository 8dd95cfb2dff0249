'use client';

import { useId, useRef, useState } from 'react';
import { useFormStatus } from 'react-dom';
import { buttonClass, type ButtonVariant } from '../button';
import { CONFIRM_INPUT, CONFIRM_VALUE, type ConfirmQuestion } from './confirm-input';

/**
 * The submit button of a destructive form. With JavaScript it asks first, in a modal <dialog>
 * (the rest of the page inert, Cancel focused, Escape or Cancel closes it and the focus returns
 * to the button); going ahead submits the form with the confirmation field. Without JavaScript
 * it is a plain submit without that field: the server asks back instead (see ConfirmPanel).
 * The dialog exists only while it asks, so a page of many such buttons carries none of them.
 * A form whose inputs say whether to ask (a list's toolbar, where only some transitions are
 * irreversible) passes a function of the form instead of one question: null submits at once.
 */
export function ConfirmSubmit({
  children,
  question,
  variant = 'danger',
  pendingLabel,
}: {
  children: string;
  question: ConfirmQuestion | ((form: HTMLFormElement) => ConfirmQuestion | null);
  variant?: ButtonVariant;
  pendingLabel?: string;
}) {
  const { pending } = useFormStatus();
  const [asking, setAsking] = useState<ConfirmQuestion | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const id = useId();
  return (
    <>
      <button
        ref={trigger}
        type="submit"
        disabled={pending}
        aria-disabled={pending}
        className={buttonClass(variant)}
        onClick={(event) => {
          const { form } = event.currentTarget;
          // An incomplete form is left to the browser, which points at what is missing before anything is asked.
          if (form && !form.checkValidity()) return;
          const asked = typeof question === 'function' ? (form ? question(form) : null) : question;
          if (!asked) return;
          event.preventDefault();
          setAsking(asked);
        }}
      >
        {pending ? (pendingLabel ?? children) : children}
      </button>
      {asking ? (
        <dialog
          ref={(dialog) => {
            // Modal: focus goes to the first button, Cancel, so Enter does not destroy anything by accident.
            if (dialog && !dialog.open) dialog.showModal();
          }}
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-description`}
          onClose={() => {
            setAsking(null);
            trigger.current?.focus();
          }}
          onClick={(event) => {
            // A click on the backdrop lands on the dialog element itself, outside its content.
            if (event.target === event.currentTarget) event.currentTarget.close();
          }}
          className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg bg-white p-0 text-left text-zinc-900 shadow-xl ring-1 ring-zinc-200 backdrop:bg-black/50"
        >
          <div className="space-y-2 p-5">
            <h2 id={`${id}-title`} className="text-base font-semibold whitespace-normal text-zinc-900">
              {asking.title}
            </h2>
            <p id={`${id}-description`} className="text-sm whitespace-normal text-zinc-700">
              {asking.description}
            </p>
          </div>
          <div className="flex flex-wrap justify-end gap-2 rounded-b-lg border-t border-zinc-200 bg-zinc-50 px-5 py-3">
            <button type="button" className={buttonClass('secondary')} onClick={(event) => event.currentTarget.closest('dialog')?.close()}>
              Cancel
            </button>
            <button
              type="submit"
              name={CONFIRM_INPUT}
              value={CONFIRM_VALUE}
              className={buttonClass('danger')}
              // The form is sent with this button's value; the dialog closes as it goes (its close event comes after).
              onClick={(event) => event.currentTarget.closest('dialog')?.close()}
            >
              {asking.confirmLabel}
            </button>
          </div>
        </dialog>
      ) : null}
    </>
  );
}
