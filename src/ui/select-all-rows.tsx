'use client';

import { useEffect, useRef, useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * "Select all on this page" for the rows' checkboxes of a form (those naming it in their `form`
 * attribute). It needs JavaScript, so it appears only once the page is hydrated; it shows mixed
 * when some rows are selected. Remount it (a new key) when the page shows other rows.
 */
export function SelectAllRows({ form, name, label }: { form: string; name: string; label: string }) {
  const hydrated = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const all = box.current;
    if (!all) return;
    const sync = () => {
      const rows = rowBoxes(form, name);
      const checked = rows.filter((row) => row.checked).length;
      all.checked = checked > 0 && checked === rows.length;
      all.indeterminate = checked > 0 && checked < rows.length;
    };
    // A form is reset after its action (React does it): the event comes before the boxes clear.
    const afterReset = () => setTimeout(sync);
    sync();
    document.addEventListener('change', sync);
    document.addEventListener('reset', afterReset);
    return () => {
      document.removeEventListener('change', sync);
      document.removeEventListener('reset', afterReset);
    };
  }, [hydrated, form, name]);
  if (!hydrated) return null;
  return (
    <input
      ref={box}
      type="checkbox"
      aria-label={label}
      className="size-4 accent-accent-600"
      onChange={(event) => {
        for (const row of rowBoxes(form, name)) row.checked = event.currentTarget.checked;
      }}
    />
  );
}

function rowBoxes(form: string, name: string): HTMLInputElement[] {
  return [...document.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][form="${CSS.escape(form)}"][name="${CSS.escape(name)}"]`)];
}
