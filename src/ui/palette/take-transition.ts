/**
 * Takes a transition the way the record's page does: with its own form for it (the one the
 * workflow panel shows, `data-transition` on it), so that the same server action, version check
 * and error display apply. A form that asks for something first (a required field or comment)
 * gets the focus instead of being sent empty. Its button is clicked as the user would, so that
 * a transition into a final state asks for confirmation first. False when the page has no such form.
 */
export function takeTransitionOnPage(name: string): boolean {
  const form = document.querySelector<HTMLFormElement>(`form[data-transition="${CSS.escape(name)}"]`);
  if (!form) return false;
  form.scrollIntoView({ block: 'center' });
  const needed = [
    ...form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input:not([type="hidden"]), select, textarea'),
  ].find((control) => control.required && control.value === '');
  if (needed) {
    needed.focus();
    return true;
  }
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!submit) return false;
  submit.focus();
  submit.click();
  return true;
}
