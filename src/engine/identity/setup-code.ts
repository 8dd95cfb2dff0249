import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { NinefoldError } from '../errors/ninefold-error';
import { logLine } from '../log';
import type { DynamicDatabase } from '../store/types';
import { fieldError } from './shared';
import type { SignInThrottle } from './sign-in-throttle';
import type { NewUser, SetupCodes, UserAccount } from './types';
import { ADMIN_ROLE } from '../access/policy';

/**
 * Until an administrator exists, /setup asks for a one-time code that only whoever can read the
 * server's log has: the first visitor of a fresh server reachable from the network cannot make
 * themselves its administrator.
 *
 * Each server process that starts without users makes its own code and stores its hash in
 * nf_setup_code, so with several servers on one PostgreSQL the code of any of them works (each
 * prints its own). A hash cannot be printed again, hence one code per start rather than one shared.
 * Creating the first user (by /setup, the CLI or NINEFOLD_ADMIN_EMAIL) deletes them all.
 */
const TABLE = 'nf_setup_code';
/** No 0/O, 1/I/L or U/V: a code read from a terminal is typed without guessing. 29^8 ≈ 2^39. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTWXYZ';
const HALF = 4;
/** Longer input is not a code; the bound keeps the hashing of a pasted essay cheap. */
const MAX_INPUT = 40;

/** The log line that carries the code: the one line of a log that may hold a secret (tests exclude it by this shape). */
export function setupCodeMessage(code: string): string {
  return `Ninefold: no administrator yet. Open /setup and enter the setup code ${code} (valid until an administrator exists).`;
}
export const SETUP_CODE_LINE =
  /Ninefold: no administrator yet\. Open \/setup and enter the setup code [2-9A-Z]{4}-[2-9A-Z]{4} \(valid until an administrator exists\)\./;

/** The code again, alone on its line below the log line: read and typed without hunting through JSON. */
export function setupCodeAlone(code: string): string {
  return `    Setup code: ${code}`;
}
export const SETUP_CODE_ALONE = /^ {4}Setup code: [2-9A-Z]{4}-[2-9A-Z]{4}$/;

export const WRONG_SETUP_CODE =
  'The setup code is not correct. It is in the log of the server, on the line "Ninefold: no administrator yet"; `npm run ninefold -- setup-code` makes a new one.';

function newCode(): string {
  let code = '';
  for (let i = 0; i < HALF * 2; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, HALF)}-${code.slice(HALF)}`;
}

/** Case, spaces and dashes do not matter ("8f3k 29qx" is 8F3K-29QX). */
function codeHash(input: string): Buffer {
  const letters = input.toUpperCase().replace(/[^0-9A-Z]/g, '');
  return createHash('sha256').update(letters).digest();
}

export function createSetupCodes(
  db: DynamicDatabase,
  throttle: SignInThrottle,
  deps: {
    hasUsers(): Promise<boolean>;
    createUser(user: NewUser, options: { onlyIfNoUsers: true }): Promise<UserAccount>;
    tooMany(retryAfterSeconds: number): NinefoldError;
  },
): SetupCodes {
  const alreadySetUp = () => new NinefoldError('FORBIDDEN', 'The application already has users; sign in instead.');

  /** Compares against every stored hash in constant time each (there is one per server start). */
  const matches = async (input: string): Promise<boolean> => {
    if (typeof input !== 'string' || input.length > MAX_INPUT) return false;
    const wanted = codeHash(input);
    const rows = (await db.selectFrom(TABLE).select('code_hash').execute()) as { code_hash: string }[];
    let found = false;
    for (const row of rows) {
      const stored = Buffer.from(row.code_hash, 'hex');
      if (stored.length === wanted.length && timingSafeEqual(stored, wanted)) found = true;
    }
    return found;
  };

  return {
    async issueSetupCode() {
      if (await deps.hasUsers()) throw alreadySetUp();
      const code = newCode();
      await db
        .insertInto(TABLE)
        .values({ code_hash: codeHash(code).toString('hex') })
        .execute();
      return code;
    },

    async createFirstAdmin(user, setupCode, context) {
      if (await deps.hasUsers()) throw alreadySetUp();
      // Per address, with the per-account limit: the code is one secret for everyone, so a global
      // count would let anyone lock the real operator out.
      const keys = { account: `setup:${(context.ip ?? 'unknown').slice(0, 100)}` };
      // Counted before the code is compared, so a burst of guesses has at most the limit compared.
      const attempt = await throttle.attempt(keys);
      if (attempt.refused) {
        logLine('warn', 'setup refused', { ip: context.ip, reason: 'throttled', retryAfterSeconds: attempt.retryAfterSeconds });
        throw deps.tooMany(attempt.retryAfterSeconds);
      }
      if (!(await matches(setupCode))) {
        logLine('warn', 'setup refused', { ip: context.ip, reason: 'wrong-setup-code' });
        throw new NinefoldError('VALIDATION_FAILED', WRONG_SETUP_CODE, {
          fieldErrors: [fieldError('setupCode', 'invalid', WRONG_SETUP_CODE)],
        });
      }
      // The right code: a first administrator refused for its own fields does not count as a guess.
      await attempt.succeeded();
      const account = await deps.createUser({ ...user, roles: [ADMIN_ROLE] }, { onlyIfNoUsers: true });
      logLine('info', 'first administrator created', { userId: account.id, ip: context.ip });
      return account;
    },
  };
}
