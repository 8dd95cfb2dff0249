import type { ReactNode } from 'react';
import { cn } from './cn';

/** A message about the whole page or form; `role="alert"` so screen readers announce it. */
export function Alert({
  tone = 'error',
  title,
  children,
  id,
}: {
  tone?: 'error' | 'info';
  title?: string;
  children?: ReactNode;
  id?: string;
}) {
  return (
    <div
      id={id}
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'rounded-md border px-4 py-3 text-sm',
        tone === 'error' ? 'border-red-200 bg-red-50 text-red-800' : 'border-accent-200 bg-accent-50 text-accent-700',
      )}
    >
      {title ? <p className="font-medium">{title}</p> : null}
      {children ? <div className={cn(title && 'mt-1')}>{children}</div> : null}
    </div>
  );
}
