import type { Theme } from '@/engine/preferences/preferences';

/** The three choices, in the order the toggle shows them, with what each one means. */
export const THEME_CHOICES: readonly { readonly value: Theme; readonly label: string; readonly description: string }[] = [
  { value: 'system', label: 'System', description: "Follow this device's light or dark setting" },
  { value: 'light', label: 'Light', description: 'Always light' },
  { value: 'dark', label: 'Dark', description: 'Always dark' },
];
