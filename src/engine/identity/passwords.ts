import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt parameters (OWASP-recommended minimum: N=2^17 is costlier; 2^15 keeps sign-in ~50 ms here). */
const SERVED_PARAMS = { N: 32768, r: 8, p: 1 } as const;
/**
 * Under the test runner (NODE_ENV=test, which Vitest sets and `npm start` never does) a 32 times
 * cheaper cost, as Django's test settings use a fast hasher: the suites hash and verify thousands
 * of passwords, and what they test (which password matches, throttling, timing-equal refusals)
 * does not depend on the cost. A hash records its parameters, so either kind verifies anywhere.
 */
const TEST_PARAMS = { N: 1024, r: 8, p: 1 } as const;
const PARAMS = process.env.NODE_ENV === 'test' ? TEST_PARAMS : SERVED_PARAMS;
const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 128 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** "scrypt$N$r$p$salt$key", all that is needed to verify later even if the parameters change. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password: verifying against it costs the same as a real one. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
