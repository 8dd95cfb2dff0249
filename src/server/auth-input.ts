/** The shortest password the setup form accepts. */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * Where to go after signing in: only a path of this site. "//host" and "/\host" are read by
 * browsers as another host, so they fall back to the home page like anything else unsafe.
 */
export function safeNextPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  if (/[\u0000-\u001f\u007f]/.test(value)) return '/';
  return value;
}
