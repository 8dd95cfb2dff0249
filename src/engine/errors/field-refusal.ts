import { NinefoldError, type FieldError } from './ninefold-error';
import type { ErrorSpec } from '../spec/types';

/**
 * A refusal that names fields (a broken record rule, a `uniqueWhen`) under the code the spec
 * gave it: its fieldErrors stay (forms show each message next to its field), while the code,
 * status, title and message are the catalogue's (a form shows that message above the fields,
 * and each field's own next to it).
 */
export function fieldRefusal(errors: Readonly<Record<string, ErrorSpec>>, code: string, fieldErrors: readonly FieldError[]): NinefoldError {
  const own = errors[code];
  return new NinefoldError(code, own?.message, {
    ...(own ? { status: own.status, title: own.title } : {}),
    fieldErrors,
  });
}
