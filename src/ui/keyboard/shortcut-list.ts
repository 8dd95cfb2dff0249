/** The shortcuts as the "?" dialog lists them: the keys to press, in order, and what they do. */
export interface ShortcutHelp {
  readonly keys: readonly string[];
  /** Pressed together (Ctrl+K) rather than one after the other (g then h). */
  readonly chord?: boolean;
  readonly does: string;
}

export function shortcutList(apple: boolean): { readonly title: string; readonly shortcuts: readonly ShortcutHelp[] }[] {
  return [
    {
      title: 'Everywhere',
      shortcuts: [
        { keys: [apple ? '⌘' : 'Ctrl', 'K'], chord: true, does: 'Open the command palette: go anywhere, find a record, act on this one' },
        { keys: ['?'], does: 'Show these shortcuts' },
        { keys: ['g', 'h'], does: 'Go home' },
      ],
    },
    {
      title: 'In lists',
      shortcuts: [
        { keys: ['j'], does: 'Next row' },
        { keys: ['k'], does: 'Previous row' },
        { keys: ['Enter'], does: 'Open the row' },
        { keys: ['x'], does: 'Select the row' },
        { keys: ['/'], does: 'Search the list' },
      ],
    },
    {
      title: 'On a record',
      shortcuts: [{ keys: ['e'], does: 'Edit it' }],
    },
  ];
}
