'use client';

import type { ComponentProps } from 'react';
import { useFormStatus } from 'react-dom';
import { buttonClass, type ButtonVariant } from '../button';
import { Spinner } from '../loading/spinner';

/**
 * A submit button that shows when its form is being sent (with JavaScript; a plain button
 * without): a spinner and its pending label. It stays focusable while pending (a disabled button
 * would drop the keyboard's focus) and ignores further presses until the answer comes.
 */
export function SubmitButton({
  children,
  pendingLabel,
  variant = 'primary',
  className,
  onClick,
  ...props
}: Omit<ComponentProps<'button'>, 'type' | 'children' | 'disabled'> & {
  children: string;
  pendingLabel?: string;
  variant?: ButtonVariant;
}) {
  const { pending } = useFormStatus();
  return (
    <button
      {...props}
      type="submit"
      aria-disabled={pending || undefined}
      onClick={(event) => {
        if (pending) event.preventDefault();
        else onClick?.(event);
      }}
      className={buttonClass(variant, pending ? `cursor-progress opacity-80 ${className ?? ''}` : className)}
    >
      {pending ? <Spinner /> : null}
      {pending ? (pendingLabel ?? children) : children}
    </button>
  );
}
