/**
 * The rows of the page's record lists, for `j`, `k` and `x`: each row (`data-list-row` on its
 * element, from record-table.tsx) has a link opening its record (`data-row-link`) and, where the
 * list takes bulk actions, a checkbox. The row focus is the browser's focus on that link, so
 * `Enter` opens it and the focus ring shows where one is.
 */

function rows(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('#main [data-list-row]')].filter((row) => row.getClientRects().length > 0);
}

function currentRow(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement ? active.closest<HTMLElement>('[data-list-row]') : null;
}

/** Moves the row focus by `step` rows (the first row when none has it); false when the page has no rows. */
export function moveRowFocus(step: 1 | -1): boolean {
  const all = rows();
  if (all.length === 0) return false;
  const current = currentRow();
  const index = current ? all.indexOf(current) : -1;
  const next = all[index === -1 ? 0 : Math.min(all.length - 1, Math.max(0, index + step))];
  const link = next?.querySelector<HTMLElement>('[data-row-link]');
  if (!link) return false;
  link.focus();
  link.scrollIntoView({ block: 'nearest' });
  return true;
}

/** Ticks or unticks the focused row's checkbox (as a click, so the page's listeners hear it). */
export function toggleRowSelection(): boolean {
  const box = currentRow()?.querySelector<HTMLInputElement>('input[type="checkbox"]');
  if (!box) return false;
  box.click();
  return true;
}
