import 'server-only';
import { CONFIRM_INPUT, CONFIRM_VALUE } from '@/ui/confirm/confirm-input';
import type { AccountFormState } from '@/ui/forms/account-state';
import { formText } from './account-forms';

/** Whether a destructive form carries the user's confirmation (its dialog's or its panel's button). */
export function confirmed(formData: FormData): boolean {
  return formText(formData, CONFIRM_INPUT) === CONFIRM_VALUE;
}

/** The answer to a destructive form posted without confirmation: nothing changed, ask first. */
export function confirmationNeeded(state: AccountFormState): AccountFormState {
  return { ok: null, message: null, fieldErrors: {}, values: {}, secret: null, attempt: state.attempt + 1, confirm: true };
}
