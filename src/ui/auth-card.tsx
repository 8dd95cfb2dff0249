import type { ReactNode } from 'react';

/** The centred card of the sign-in and setup pages. */
export function AuthCard({
  eyebrow,
  title,
  description,
  children,
}: {
  eyebrow: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <span aria-hidden="true" className="mx-auto mb-4 block size-8 rounded-lg bg-accent-600" />
          <p className="text-sm font-medium text-zinc-500">{eyebrow}</p>
          <h1 className="mt-1 text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
          {description ? <p className="mt-2 text-sm text-zinc-600">{description}</p> : null}
        </div>
        <div className="rounded-lg border border-zinc-200 bg-white p-6 shadow-xs">{children}</div>
      </div>
    </div>
  );
}
