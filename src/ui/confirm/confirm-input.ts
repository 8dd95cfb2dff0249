/**
 * The field a destructive form sends once the user has confirmed: the server action requires it,
 * so a form posted without it (no JavaScript, or a forged post) only asks, and changes nothing.
 */
export const CONFIRM_INPUT = 'confirm';
export const CONFIRM_VALUE = 'yes';

/** What the user is asked before a destructive action. */
export interface ConfirmQuestion {
  /** "Disable ana@example.com?" */
  readonly title: string;
  /** What happens and what cannot be undone. */
  readonly description: string;
  /** The button that goes ahead: "Disable". */
  readonly confirmLabel: string;
}
