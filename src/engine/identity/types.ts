import type { Actor } from '../ops/types';

export interface UserAccount {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly roles: readonly string[];
  readonly disabled: boolean;
}

export interface NewUser {
  readonly email: string;
  readonly password: string;
  readonly name?: string;
  readonly roles: readonly string[];
}

export interface IssuedSession {
  /** The secret put in the cookie; only its hash is stored. */
  readonly token: string;
  readonly expiresAt: Date;
}

/** A personal API token as created: `token` is shown this once; only its sha256 is stored. */
export interface IssuedApiToken {
  /** "nf_" + 32 random bytes in base64url; sent as `Authorization: Bearer <token>`. */
  readonly token: string;
  readonly id: number;
  readonly name: string;
  /** null: valid until revoked. */
  readonly expiresAt: Date | null;
}

/** A personal API token as listed (never the token itself). */
export interface ApiTokenInfo {
  readonly id: number;
  readonly name: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  /** Recorded at most every few minutes. */
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

/** Accounts, server-side sessions and personal API tokens. Passwords are hashed with scrypt (node:crypto). */
export interface Identity {
  hasUsers(): Promise<boolean>;
  /**
   * With `onlyIfNoUsers`, creates the account only while the application has no user at all
   * (checked under a lock), otherwise FORBIDDEN: the first-admin bootstrap.
   */
  createUser(user: NewUser, options?: { onlyIfNoUsers?: boolean }): Promise<UserAccount>;
  listUsers(): Promise<readonly UserAccount[]>;
  /** The account when the password matches and the account is active; otherwise null. */
  verifyCredentials(email: string, password: string): Promise<UserAccount | null>;
  createSession(userId: number): Promise<IssuedSession>;
  /** The actor for a session token, or null when unknown, expired or the user is disabled. */
  actorForSession(token: string): Promise<Actor | null>;
  endSession(token: string): Promise<void>;
  /** A new personal API token of the user; VALIDATION_FAILED for an empty name or a past expiry, NOT_FOUND for no such user. */
  createApiToken(userId: number, options: { name: string; expiresAt?: Date | null }): Promise<IssuedApiToken>;
  /** The user's tokens, newest first, revoked and expired ones included. */
  listApiTokens(userId: number): Promise<readonly ApiTokenInfo[]>;
  /** Revokes one of the user's tokens (again is harmless); NOT_FOUND when the user has no such token. */
  revokeApiToken(userId: number, id: number): Promise<void>;
  /** The actor for an API token, or null when malformed, unknown, revoked, expired or the user is disabled. */
  actorForApiToken(token: string): Promise<Actor | null>;
}
