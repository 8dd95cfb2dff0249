/**
 * The outcome of the small account and administration forms (name, password, tokens, invitations,
 * roles), as plain data: it crosses the server/client boundary and is rendered without JavaScript
 * from the action's result too.
 */
export interface AccountFormState {
  /** null before the first submission; true when the action did what was asked. */
  readonly ok: boolean | null;
  readonly message: string | null;
  /** One message per input name, shown next to the input. */
  readonly fieldErrors: Readonly<Record<string, string>>;
  /** What was typed (never a password), shown again after a refusal. */
  readonly values: Readonly<Record<string, string>>;
  /** Shown this once after it was made (an invitation link, an API token); kept nowhere else. */
  readonly secret: string | null;
  /** Counts submissions: inputs are keyed by it so that they remount with the returned values. */
  readonly attempt: number;
  /** True when a destructive form came without its confirmation: nothing changed, the form asks first. */
  readonly confirm?: boolean;
}

export const initialAccountFormState: AccountFormState = { ok: null, message: null, fieldErrors: {}, values: {}, secret: null, attempt: 0 };

export type AccountAction = (state: AccountFormState, formData: FormData) => Promise<AccountFormState>;

/** A role as the forms offer it. */
export interface RoleOption {
  readonly name: string;
  readonly label: string;
  readonly description?: string;
}

/** API token lifetimes offered on the account page, in days (null: until revoked). */
export const TOKEN_LIFETIMES: readonly { readonly value: string; readonly label: string; readonly days: number | null }[] = [
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: '365', label: '1 year', days: 365 },
  { value: 'never', label: 'No expiry', days: null },
];
