import type { TestProject } from 'vitest/node';
import { ADMIN, startServer, stopServer, type RunningServer } from './servers';

declare module 'vitest' {
  export interface ProvidedContext {
    helpdesk: { url: string; logFile: string };
    seed: { url: string; logFile: string };
  }
}

let servers: RunningServer[] = [];

export async function setup(project: TestProject): Promise<void> {
  // Sequential on purpose: the first start builds the app, the second reuses the build.
  const helpdesk = await startServer('helpdesk', {
    NINEFOLD_SPEC: 'examples/helpdesk/ninefold.spec.ts',
    NINEFOLD_ADMIN_EMAIL: ADMIN.email,
    NINEFOLD_ADMIN_PASSWORD: ADMIN.password,
  });
  servers.push(helpdesk);
  const seed = await startServer('seed', { NINEFOLD_SPEC: 'examples/seed/ninefold.spec.ts' });
  servers.push(seed);
  project.provide('helpdesk', { url: helpdesk.url, logFile: helpdesk.logFile });
  project.provide('seed', { url: seed.url, logFile: seed.logFile });
}

export async function teardown(): Promise<void> {
  await Promise.all(servers.map(stopServer));
  servers = [];
}
