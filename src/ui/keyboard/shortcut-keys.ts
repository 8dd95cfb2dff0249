/**
 * Which single-key shortcut a key press means, decided without the DOM so that it can be
 * tested: the page's listener (keyboard-shortcuts.tsx) describes the event and its target.
 */

/** The actions the page's keys trigger. */
export type ShortcutAction = 'palette' | 'next-row' | 'previous-row' | 'select-row' | 'edit' | 'help' | 'search' | 'home';

/** What the listener knows about the element a key press is aimed at. */
export interface KeyTarget {
  readonly tagName: string;
  /** An input's type ("text", "checkbox"...); absent for other elements. */
  readonly type?: string;
  readonly isContentEditable?: boolean;
}

/** Input types that take no typed text: keys pressed on them are free for shortcuts. */
const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'color', 'range']);

/**
 * Whether keys pressed on this element are typing: a text-like input, a textarea, a select
 * (letters pick its options) or anything editable. Shortcuts never fire there.
 */
export function isTypingTarget(target: KeyTarget | null): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has((target.type ?? 'text').toLowerCase());
  return false;
}

export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  /** True while an input method composes a character (the key is not the character yet). */
  readonly isComposing?: boolean;
  readonly target: KeyTarget | null;
}

/** Ctrl+K, or Cmd+K on a Mac: the palette opens from anywhere, fields included. */
export function isPaletteKey(press: KeyPress): boolean {
  return press.key.toLowerCase() === 'k' && (press.ctrlKey || press.metaKey) && !press.altKey;
}

const SINGLE_KEYS: Readonly<Record<string, ShortcutAction>> = {
  j: 'next-row',
  k: 'previous-row',
  x: 'select-row',
  e: 'edit',
  '?': 'help',
  '/': 'search',
};

/** How long the second key of a sequence ("g" then "h") may wait. */
export const SEQUENCE_MS = 1500;

/**
 * The action a key press means, given the first key of a sequence pressed just before
 * (`pending`, "g"), and what is pending after it. Single keys never fire while typing in a
 * field, with Ctrl, Cmd or Alt held, or while an input method composes.
 */
export function shortcutFor(press: KeyPress, pending: string | null): { action: ShortcutAction | null; pending: string | null } {
  if (isPaletteKey(press)) return { action: 'palette', pending: null };
  if (press.ctrlKey || press.metaKey || press.altKey || press.isComposing || isTypingTarget(press.target))
    return { action: null, pending: null };
  if (pending === 'g') return { action: press.key === 'h' ? 'home' : null, pending: null };
  if (press.key === 'g') return { action: null, pending: 'g' };
  return { action: SINGLE_KEYS[press.key] ?? null, pending: null };
}
