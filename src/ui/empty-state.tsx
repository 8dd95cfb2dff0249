import type { ReactNode } from 'react';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
      <p className="text-sm font-medium text-zinc-900">{title}</p>
      {children ? <div className="mt-3 flex justify-center gap-2 text-sm text-zinc-600">{children}</div> : null}
    </div>
  );
}
