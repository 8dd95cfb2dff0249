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

/** Accounts and server-side sessions. Passwords are hashed with scrypt (node:crypto). */
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
}
