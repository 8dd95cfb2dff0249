import 'server-only';
import { asNinefoldError } from '@/engine/errors/ninefold-error';
import type { AccountFormState } from '@/ui/forms/account-state';

/** A form field's text ('' when absent or a file). */
export function formText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}

/** Every text value of a repeated field (checkboxes). */
export function formTexts(formData: FormData, name: string): string[] {
  return formData.getAll(name).filter((v): v is string => typeof v === 'string');
}

/** A whole positive number from a form field, or null. */
export function formId(formData: FormData, name: string): number | null {
  const text = formText(formData, name);
  const id = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function succeeded(state: AccountFormState, message: string, extra: Partial<AccountFormState> = {}): AccountFormState {
  return { ok: true, message, fieldErrors: {}, values: {}, secret: null, attempt: state.attempt + 1, ...extra };
}

export function failed(
  state: AccountFormState,
  message: string,
  fieldErrors: Record<string, string> = {},
  values: Record<string, string> = {},
): AccountFormState {
  return { ok: false, message, fieldErrors, values, secret: null, attempt: state.attempt + 1 };
}

/**
 * A refusal of the engine as the form's state: its message on top, field errors next to their
 * inputs. Anything that is not a catalogue error is rethrown (the error page, with a digest).
 */
export function refused(state: AccountFormState, error: unknown, values: Record<string, string> = {}): AccountFormState {
  const known = asNinefoldError(error);
  if (!known) throw error;
  const fieldErrors: Record<string, string> = {};
  for (const e of known.fieldErrors) fieldErrors[e.field] ??= e.message;
  const message = known.fieldErrors.length > 0 && known.code === 'VALIDATION_FAILED' ? 'Check the fields marked below.' : known.message;
  return failed(state, message, fieldErrors, values);
}
