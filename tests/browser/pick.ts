import type { Locator, Page } from 'playwright-core';

/**
 * Chooses in a reference or user picker (src/ui/forms/choice-picker.tsx) as a user does: types
 * `text` in its combobox, waits for the server's options, and clicks the one named `option`
 * (default: the first starting with what was typed; an administrator's options add the email).
 */
export async function pick(
  scope: Page | Locator,
  label: string,
  text: string,
  option: string | RegExp = startingWith(text),
): Promise<void> {
  const box = scope.getByRole('combobox', { name: label, exact: true });
  await box.fill(text);
  const list = scope.getByRole('listbox', { name: `${label}: choices`, exact: true });
  await list
    .getByRole('option', { name: option, exact: typeof option === 'string' })
    .first()
    .click();
}

function startingWith(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}

/** The options a picker offers for `text`, as shown. */
export async function offeredFor(scope: Page | Locator, label: string, text: string): Promise<string[]> {
  const box = scope.getByRole('combobox', { name: label, exact: true });
  await box.fill(text);
  const list = scope.getByRole('listbox', { name: `${label}: choices`, exact: true });
  await list.getByRole('option').first().waitFor();
  return list.getByRole('option').allTextContents();
}

/** Chooses by id in a picker as a browser without JavaScript shows it: its plain select of a few, or its id input. */
export async function choosePlain(scope: Page | Locator, name: string, id: number): Promise<void> {
  const input = scope.locator(`[name="${name}"]`);
  if ((await input.evaluate((el) => el.tagName)) === 'SELECT') await input.selectOption(String(id));
  else await input.fill(String(id));
}
