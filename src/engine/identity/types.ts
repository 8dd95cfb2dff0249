import type { RecordValue } from '../ground/record-value';
import type { Actor } from '../ground/actor';
import type { Preferences } from '../preferences/preferences';

export interface UserAccount {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly roles: readonly string[];
  readonly disabled: boolean;
}

/** An account as the administrators' list shows it. */
export interface UserInfo extends UserAccount {
  readonly createdAt: Date;
  readonly disabledAt: Date | null;
  /** The spec's user fields (`users.fields`) by name: ids for reference and user fields, null when unset. */
  readonly fields: Readonly<Record<string, RecordValue>>;
}

export interface NewUser {
  readonly email: string;
  readonly password: string;
  readonly name?: string;
  readonly roles: readonly string[];
  /** Values of the spec's user fields by name, checked like setUserFields; the others take their defaults. */
  readonly fields?: Readonly<Record<string, unknown>>;
}

export interface IssuedSession {
  /** The secret put in the cookie; only its hash is stored. */
  readonly token: string;
  readonly expiresAt: Date;
}

/** What a successful sign-in gives: the account and a brand-new session (never one that existed before). */
export interface SignedIn {
  readonly user: UserAccount;
  readonly session: IssuedSession;
}

/** The door a sign-in came through, for throttling and the log. */
export interface SignInContext {
  /** The client's address (counted by the per-address throttle). */
  readonly ip: string;
}

/** An invitation as created: `token` is in the link shown to the administrator this once. */
export interface IssuedInvite {
  readonly id: number;
  readonly token: string;
  /** "/invite/<token>": the page that accepts it. */
  readonly path: string;
  readonly email: string;
  readonly roles: readonly string[];
  readonly expiresAt: Date;
}

/** An invitation as listed or looked up (never the token). */
export interface InviteInfo {
  readonly id: number;
  readonly email: string;
  readonly roles: readonly string[];
  readonly invitedBy: number | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/**
 * Session timeouts and sign-in throttling (the spec constants of the same names, see
 * src/engine/limits.ts). Failed sign-ins are counted over SIGN_IN_WINDOW_MINUTES.
 */
export interface IdentityPolicy {
  readonly sessionIdleMinutes: number;
  readonly sessionMaxDays: number;
  readonly signInAttemptsPerAccount: number;
  readonly signInAttemptsPerIp: number;
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

/**
 * Accounts, server-side sessions, personal API tokens and each user's preferences. Passwords are
 * hashed with scrypt (node:crypto).
 */
export interface Identity extends Preferences, SetupCodes {
  hasUsers(): Promise<boolean>;
  /**
   * A new account, made by an administrator (the CLI and seeding act as SYSTEM_ACTOR; people are
   * otherwise invited): FORBIDDEN for anyone else. With `onlyIfNoUsers`, creates the account only
   * while the application has no user at all (checked under a lock), otherwise FORBIDDEN: the
   * first-admin bootstrap.
   */
  createUser(actor: Actor, user: NewUser, options?: { onlyIfNoUsers?: boolean }): Promise<UserAccount>;
  /** Every account, by email. Administrators only, like every operation below that takes the actor first: FORBIDDEN otherwise. */
  listUsers(actor: Actor): Promise<readonly UserInfo[]>;
  /** The account when the password matches and the account is active; otherwise null. Not throttled: doors use signIn. */
  verifyCredentials(email: string, password: string): Promise<UserAccount | null>;
  /**
   * Checks the credentials and starts a new session. Throttled per account and per address
   * (failed attempts count; a success resets the account's count): RATE_LIMITED with
   * retryAfterSeconds beyond the limits, UNAUTHENTICATED for wrong credentials or a disabled
   * account (one message for all, so accounts cannot be probed). Logged without secrets.
   */
  signIn(email: string, password: string, context: SignInContext): Promise<SignedIn>;
  /** A new session, with a fresh random token, for the user. */
  createSession(userId: number): Promise<IssuedSession>;
  /**
   * The actor for a session token, or null when unknown, ended, past its idle or absolute
   * timeout, or the user is disabled.
   */
  actorForSession(token: string): Promise<Actor | null>;
  /** Ends the session on the server (a copied cookie stops working too); unknown tokens are harmless. */
  endSession(token: string): Promise<void>;
  /**
   * Disables the account and, in the same transaction, ends all its sessions and revokes all its
   * API tokens. FORBIDDEN for one's own account, NOT_FOUND for no such user; again is harmless.
   */
  disableUser(actor: Actor, userId: number): Promise<UserAccount>;
  /** Lets a disabled account sign in again (its revoked API tokens stay revoked). */
  enableUser(actor: Actor, userId: number): Promise<UserAccount>;
  /**
   * Replaces the user's roles: roles of the spec, and the built-in admin always. VALIDATION_FAILED for an
   * unknown role; FORBIDDEN when an administrator would take the admin role from themselves.
   */
  setRoles(actor: Actor, userId: number, roles: readonly string[]): Promise<UserAccount>;
  /**
   * Sets some of the user's fields (`users.fields`), by name: a form's or the CLI's strings or
   * typed values, "" or null to clear. VALIDATION_FAILED (one message per field) for an unknown
   * name, a value the field's rules refuse, or an id naming no record (no user holding the
   * field's roles); NOT_FOUND for no such user. The actor of their sessions and tokens carries
   * the new values from the next request on.
   */
  setUserFields(actor: Actor, userId: number, values: Readonly<Record<string, unknown>>): Promise<UserInfo>;
  updateProfile(userId: number, profile: { readonly name: string }): Promise<UserAccount>;
  /**
   * Checks the current password (VALIDATION_FAILED on `current` when wrong; such failures count
   * towards the account's sign-in throttle), sets the new one, ends every session of the user and
   * returns a new one for the device that asked: the caller puts it in the cookie.
   */
  changePassword(userId: number, current: string, next: string): Promise<IssuedSession>;
  /**
   * A one-time invitation for an email with roles, valid INVITE_DAYS; its token is stored hashed.
   * VALIDATION_FAILED for a bad email, an unknown role, or an email that already has an account.
   * Recorded as invited by the actor's account (none for the system actor).
   */
  createInvite(actor: Actor, invite: { readonly email: string; readonly roles: readonly string[] }): Promise<IssuedInvite>;
  /** The invitation of a link; NOT_FOUND (with a message saying which) when unknown, used or expired. */
  inviteFor(token: string): Promise<InviteInfo>;
  /** Creates the invited account with the invited roles, once; then the link is used up. Errors as inviteFor. */
  acceptInvite(token: string, account: { readonly name: string; readonly password: string }): Promise<UserAccount>;
  /** Invitations neither used nor expired, newest first. */
  listInvites(actor: Actor): Promise<readonly InviteInfo[]>;
  /** Withdraws an invitation that has not been used (its link stops working). NOT_FOUND otherwise. */
  revokeInvite(actor: Actor, id: number): Promise<void>;
  /** A new personal API token of the user; VALIDATION_FAILED for an empty name or a past expiry, NOT_FOUND for no such user. */
  createApiToken(userId: number, options: { name: string; expiresAt?: Date | null }): Promise<IssuedApiToken>;
  /** The user's tokens, newest first, revoked and expired ones included. */
  listApiTokens(userId: number): Promise<readonly ApiTokenInfo[]>;
  /** Revokes one of the user's tokens (again is harmless); NOT_FOUND when the user has no such token. */
  revokeApiToken(userId: number, id: number): Promise<void>;
  /** The actor for an API token, or null when malformed, unknown, revoked, expired or the user is disabled. */
  actorForApiToken(token: string): Promise<Actor | null>;
}

/** The way in before anyone has an account: the first administrator by a setup code (setup-code.ts). */
export interface SetupCodes {
  /**
   * A new setup code, stored hashed; the caller shows it to the operator (the server's log, the
   * CLI). FORBIDDEN once the application has users: there is nothing left to set up.
   */
  issueSetupCode(): Promise<string>;
  /**
   * Creates the first administrator when `setupCode` is one of the stored codes. Throttled per
   * client address like sign-in (RATE_LIMITED); a wrong or missing code is VALIDATION_FAILED on
   * `setupCode` and creates nothing; FORBIDDEN once any user exists. The codes are consumed with it.
   */
  createFirstAdmin(user: Omit<NewUser, 'roles'>, setupCode: string, context: { readonly ip?: string }): Promise<UserAccount>;
}
