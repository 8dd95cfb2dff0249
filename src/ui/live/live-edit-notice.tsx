'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { buttonClass } from '../button';
import { declareInterest } from './topics';

/**
 * Above an edit form: says at once when someone else changes the record being edited, instead
 * of refreshing the form under the user. "Show what changed" sends the form, which the server
 * refuses as stale and answers with the stale-version view (what changed, what you typed kept);
 * "Reload" starts over from the current version. Wraps the form it speaks for.
 */
export function LiveEditNotice({
  entity,
  id,
  label,
  reloadHref,
  children,
}: {
  entity: string;
  id: number;
  /** The entity's label in lower case: "ticket". */
  label: string;
  reloadHref: string;
  children: ReactNode;
}) {
  const [changed, setChanged] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => declareInterest({ topics: [{ entity, ids: [id] }], onChange: () => setChanged(true) }), [entity, id]);

  const review = () => {
    setChanged(false);
    box.current?.querySelector('form')?.requestSubmit();
  };

  return (
    <div ref={box} className="space-y-4">
      {changed ? (
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p className="font-medium">This {label} was changed by someone else while you were editing.</p>
          <p className="mt-1">
            What you typed is still here. See what changed before you save, or reload to start over from the current version.
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="button" onClick={review} className={buttonClass('secondary')}>
              Show what changed
            </button>
            <a href={reloadHref} className={buttonClass('ghost')}>
              Reload
            </a>
          </div>
        </div>
      ) : null}
      {children}
    </div>
  );
}
