import { NinefoldError } from '@/engine/errors/ninefold-error';

/**
 * The error as a NinefoldError when it is one. Checked by class and, in case a bundler gave
 * the engine module two instances, by shape.
 */
export function asNinefoldError(error: unknown): NinefoldError | null {
  if (error instanceof NinefoldError) return error;
  if (
    error instanceof Error &&
    error.name === 'NinefoldError' &&
    'code' in error &&
    typeof error.code === 'string' &&
    'fieldErrors' in error &&
    Array.isArray(error.fieldErrors)
  ) {
    return error as NinefoldError;
  }
  return null;
}

export function hasCode(error: unknown, code: string): boolean {
  return asNinefoldError(error)?.code === code;
}
