import { existsSync, readFileSync } from 'node:fs';
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

  it('keeps serving, idle and stoppable, when nobody reads its output any more', async () => {
    const server = await startServer('closed-output', {});
    /** CPU time the process has used, in clock ticks (Linux's /proc, user + system). */
    const ticks = () => {
      const fields = readFileSync(`/proc/${server.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]);
    };
    try {
      // What started it went away: its output is a pipe whose reader is gone (EPIPE on write).
      server.process.stdout?.destroy();
      server.process.stderr?.destroy();
      // Requests that write log lines: a refused malformed path, a page, an unknown route.
      for (const address of ['/%zz', '/sign-in', '/no-such-page']) await fetch(`${server.url}${address}`, { redirect: 'manual' });
      const before = ticks();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      // Idle: a log line that cannot be written is dropped, not reported in a loop (that held a core).
      expect(ticks() - before).toBeLessThan(20);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await stopServer(server);
    }
    // SIGTERM was enough (stopServer sends SIGKILL only to a server still running after 10 s).
    expect(server.process.signalCode).not.toBe('SIGKILL');
  });
});
