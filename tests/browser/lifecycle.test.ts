import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN, startServer, stopServer } from './servers';

async function signInCookie(url: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  expect(response.status).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

describe('the server on the embedded database', () => {
  it('releases the data directory on SIGTERM and keeps the data across a restart', async () => {
    const env = { NINEFOLD_ADMIN_EMAIL: ADMIN.email, NINEFOLD_ADMIN_PASSWORD: ADMIN.password };
    const first = await startServer('lifecycle', env);
    const lock = path.join(first.dataDir, 'ninefold.lock');
    expect(existsSync(lock)).toBe(true);
    const cookie = await signInCookie(first.url);
    // A second server on the same directory is refused, not allowed to corrupt it.
    await expect(startServer('lifecycle-second', env, first.dataDir)).rejects.toThrow(/exited/);

    // The session survives the restart too: it lives in the database.
    await stopServer(first);
    expect(first.process.exitCode !== null || first.process.signalCode !== null).toBe(true);
    expect(existsSync(lock)).toBe(false);

    const second = await startServer('lifecycle', env, first.dataDir);
    try {
      const page = await fetch(`${second.url}/tickets`, { headers: { cookie }, redirect: 'manual' });
      expect(page.status).toBe(200);
    } finally {
      await stopServer(second);
    }
  });
});
