import { createHash } from 'node:crypto';
import { PUBLIC_ROLE } from '../access/visitor';
import { NinefoldError } from '../errors/ninefold-error';
import type { UserAccount, UserInfo } from './types';
import { ADMIN_ROLE, isAdmin } from '../access/policy';
import { beforeFirst } from '../spec/naming';

/** The shortest password any door accepts. */
export const MIN_PASSWORD_LENGTH = 8;
/** scrypt reads all of it: a bound keeps one request from costing seconds. */
export const MAX_PASSWORD_LENGTH = 1000;
export const MAX_NAME_LENGTH = 200;

export interface UserRow {
  id: number;
  email: string;
  name: string;
  roles: string[];
  disabled_at: Date | null;
  created_at: Date;
}

export const USER_COLUMNS = ['id', 'email', 'name', 'roles', 'disabled_at', 'created_at'] as const;

export function toAccount(row: Pick<UserRow, 'id' | 'email' | 'name' | 'roles' | 'disabled_at'>): UserAccount {
  return { id: Number(row.id), email: row.email, name: row.name, roles: row.roles, disabled: row.disabled_at !== null };
}

export function toUserInfo(row: UserRow, fields: UserInfo['fields'] = {}): UserInfo {
  return { ...toAccount(row), createdAt: row.created_at, disabledAt: row.disabled_at, fields };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Lower case and trimmed. Control characters (NUL above all, which PostgreSQL text cannot hold)
 * can be in no stored address, so they become a character no address has either.
 */
export function normalizeEmail(email: string): string {
  return email
    .trim()
    .toLowerCase()
    .replace(/[\u0000-\u001f\u007f]/g, '\ufffd');
}

export const EMAIL = /^[^\s@\ufffd]+@[^\s@\ufffd]+\.[^\s@\ufffd]+$/;

/** What the log may say about an email address: its domain, never the whole address. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1, at + 101).toLowerCase();
}

export function emailTaken(): NinefoldError {
  return new NinefoldError('VALIDATION_FAILED', undefined, {
    fieldErrors: [{ field: 'email', code: 'unique', message: 'A user with this email already exists.' }],
  });
}

export function fieldError(field: string, code: string, message: string) {
  return { field, code, message };
}

/**
 * The first role that is neither one of the spec's nor the built-in admin (always known), if any. `public`
 * is never a user's: it is what visitors who are not signed in hold.
 */
export function unknownRole(roles: readonly string[], knownRoles: readonly string[]): string | undefined {
  return roles.find((r) => r === PUBLIC_ROLE || (!knownRoles.includes(r) && !isAdmin(r)));
}

/** The roles without repeats, in a stable order: the built-in admin first, then as the spec lists them. */
export function orderedRoles(roles: readonly string[], knownRoles: readonly string[]): string[] {
  return [ADMIN_ROLE, ...knownRoles.filter((r) => !isAdmin(r))].filter((r) => roles.includes(r));
}

export function passwordProblems(password: string, field: string) {
  if (password.length < MIN_PASSWORD_LENGTH) return [fieldError(field, 'too_short', `Use at least ${MIN_PASSWORD_LENGTH} characters.`)];
  if (password.length > MAX_PASSWORD_LENGTH) return [fieldError(field, 'too_big', `Use at most ${MAX_PASSWORD_LENGTH} characters.`)];
  return [];
}

/** A trimmed name, or the email's local part when none is given. */
export function nameOrDefault(name: string | undefined, email: string): string {
  return name?.trim() || beforeFirst(email, '@');
}

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}
