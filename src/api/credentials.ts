import { createHash } from 'node:crypto';
import { isHttpsRequest } from './request-scheme.mjs';

export const SESSION_COOKIE = 'nf_session';

/** What a request presents to say who it is: an API token wins over the session cookie. */
export type Credentials =
  | { readonly kind: 'none' }
  /** An Authorization header that is not "Bearer <token>": refused, never ignored. */
  | { readonly kind: 'malformed' }
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'cookie'; readonly token: string };

/** The value of one cookie of the Cookie header (first occurrence), or null. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    return value === '' ? null : value;
  }
  return null;
}

export function readCredentials(headers: Headers): Credentials {
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    const token = /^Bearer +([\x21-\x7e]{1,512})\s*$/i.exec(authorization)?.[1];
    return token ? { kind: 'bearer', token } : { kind: 'malformed' };
  }
  const session = readCookie(headers.get('cookie'), SESSION_COOKIE);
  return session ? { kind: 'cookie', token: session } : { kind: 'none' };
}

/** A key for the per-token rate limit that is not the token itself (keys may be inspected). */
export function credentialKey(credentials: Credentials, userId: number): string {
  return credentials.kind === 'bearer'
    ? `token:${createHash('sha256').update(credentials.token).digest('hex').slice(0, 32)}`
    : `user:${userId}`;
}

/**
 * Whether the request's Origin is the application's own. A browser sends Origin with every
 * cross-site POST, PATCH, PUT and DELETE (and with same-origin ones from fetch and forms), so a
 * session-cookie change without a matching Origin is refused: the CSRF defence of the API.
 */
export function isSameOrigin(headers: Headers, appOrigin: string): boolean {
  const origin = headers.get('origin');
  if (!origin || origin === 'null') return false;
  try {
    return new URL(origin).origin === new URL(appOrigin).origin;
  } catch {
    return false;
  }
}

export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    `Expires=${expiresAt.toUTCString()}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedSessionCookie(secure: boolean): string {
  return [
    `${SESSION_COOKIE}=`,
    'Path=/',
    'Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    'Max-Age=0',
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/**
 * Whether the request reached us over https: as the server found it (src/api/request-scheme.mjs,
 * X-Forwarded-Proto only from the proxies TRUST_PROXY declares), or the request's own URL.
 */
export function isHttps(request: Request): boolean {
  if (isHttpsRequest(request.headers)) return true;
  try {
    return new URL(request.url).protocol === 'https:';
  } catch {
    return false;
  }
}
