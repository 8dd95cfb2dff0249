import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWhenNeeded } from '../../scripts/build-stamp.mjs';
import { secretsInLog } from '../../src/engine/identity/log-secrets';
import { ADMIN, DEMO_AGENT, DEMO_CUSTOMER, startServer, stopServer, type RunningServer } from './servers';

/** Passwords the tests type (others are made per test, and caught by shape: "password" fields). */
const KNOWN_PASSWORDS = [ADMIN.password, DEMO_AGENT.password, DEMO_CUSTOMER.password, 'first-password'];

declare module 'vitest' {
  export interface ProvidedContext {
    helpdesk: { url: string; logFile: string };
    seed: { url: string; logFile: string };
    crm: { url: string; logFile: string };
  }
}

let servers: RunningServer[] = [];

export async function setup(project: TestProject): Promise<void> {
  // Sequential on purpose: the first start builds the app, the second reuses the build.
  // Demo data first (users of every role, a few records), as a user would with the CLI.
  const helpdeskData = mkdtempSync(path.join(tmpdir(), 'nf-browser-helpdesk-'));
  const env = {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: helpdeskData,
    NINEFOLD_SPEC: 'examples/helpdesk/ninefold.spec.ts',
    // The first admin is made when the database has no user yet: before the demo users.
    NINEFOLD_ADMIN_EMAIL: ADMIN.email,
    NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
  };
  const root = path.resolve(__dirname, '../..');
  // Built here, without a deadline (a loaded machine builds slowly): the servers' wait for health is for starting only.
  await buildWhenNeeded(root);
  execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/cli/main.ts', 'seed', '--count', '30'], {
    cwd: root,
    env,
    stdio: 'ignore',
  });
  const helpdesk = await startServer(
    'helpdesk',
    // TRUST_PROXY: the tests play the one proxy in front, so that a test can have an address of its own.
    {
      NINEFOLD_SPEC: 'examples/helpdesk/ninefold.spec.ts',
      NINEFOLD_ADMIN_EMAIL: ADMIN.email,
      NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
      TRUST_PROXY: '1',
    },
    helpdeskData,
  );
  servers.push(helpdesk);
  const seed = await startServer('seed', { NINEFOLD_SPEC: 'examples/seed/ninefold.spec.ts' });
  servers.push(seed);
  // The CRM example, seeded the same way: the second spec, served with no engine code for it.
  const crmData = mkdtempSync(path.join(tmpdir(), 'nf-browser-crm-'));
  const crmEnv = {
    NINEFOLD_SPEC: 'examples/crm/ninefold.spec.ts',
    NINEFOLD_ADMIN_EMAIL: ADMIN.email,
    NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
  };
  execFileSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/cli/main.ts', 'seed', '--count', '60'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: crmData, ...crmEnv },
    stdio: 'ignore',
  });
  const crm = await startServer('crm', crmEnv, crmData);
  servers.push(crm);
  project.provide('helpdesk', { url: helpdesk.url, logFile: helpdesk.logFile });
  project.provide('crm', { url: crm.url, logFile: crm.logFile });
  project.provide('seed', { url: seed.url, logFile: seed.logFile });
}

export async function teardown(): Promise<void> {
  await Promise.all(servers.map(stopServer));
  const logs = servers.map((s) => s.logFile);
  servers = [];
  // Secrets never reach a log: every server's whole log of this run, checked once all is said.
  const found = logs.flatMap((file) =>
    secretsInLog(readFileSync(file, 'utf8'), KNOWN_PASSWORDS).map((s) => `${file}:${s.line}: ${s.kind}`),
  );
  if (found.length > 0) {
    // This vitest logs a teardown error without failing the run: the exit code says it.
    process.exitCode = 1;
    throw new Error(`Secrets in the servers' logs (places only):\n${found.slice(0, 50).join('\n')}`);
  }
}
