import { NinefoldError, type FieldError } from './ninefold-error';
import type { ErrorSpec } from '../spec/types';

/**
 * A refusal that names fields (a broken record rule, a `uniqueWhen`) under the code the spec
 * gave it: its fieldErrors stay (forms show each message next to its field), while the code,
 * status and title are the catalogue's. VALIDATION_FAILED keeps its generic detail; an own code
 * reads as the first field's message, since that is what the client shows for it.
 */
export function fieldRefusal(
  errors: Readonly<Record<string, ErrorSpec>>,
  code: string,
  fieldErrors: readonly FieldError[],
): NinefoldError {
  if (code === 'VALIDATION_FAILED') return new NinefoldError(code, undefined, { fieldErrors });
  const own = errors[code];
  return new NinefoldError(code, fieldErrors[0]?.message ?? own?.message, {
    ...(own ? { status: own.status, title: own.title } : {}),
    fieldErrors,
  });
}
