import 'server-only';
import { asNinefoldError } from '@/engine/errors/ninefold-error';

/** Codes that mean "not for this viewer": the widget is left out, without a hint of what it would show. */
const NOT_FOR_VIEWER = new Set(['FORBIDDEN', 'FORBIDDEN_FIELD']);

/**
 * The value, or null when ops refuses it because of the viewer's access (a customer's home
 * has no "assigned to me" list: the assignee is hidden from them). Anything else still fails.
 */
export async function unlessRefused<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    const refusal = asNinefoldError(error);
    if (refusal && NOT_FOR_VIEWER.has(refusal.code)) return null;
    throw error;
  }
}
