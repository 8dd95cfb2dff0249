'use client';

import { useFormStatus } from 'react-dom';
import { buttonClass, type ButtonVariant } from '../button';

/** A submit button that shows when its form is being sent (with JavaScript; a plain button without). */
export function SubmitButton({ children, pendingLabel, variant = 'primary' }: {
  children: string;
  pendingLabel?: string;
  variant?: ButtonVariant;
}) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" disabled={pending} aria-disabled={pending} className={buttonClass(variant)}>
      {pending ? (pendingLabel ?? children) : children}
    </button>
  );
}
