import { asNinefoldError } from '@/engine/errors/ninefold-error';

export { asNinefoldError };

export function hasCode(error: unknown, code: string): boolean {
  return asNinefoldError(error)?.code === code;
}
