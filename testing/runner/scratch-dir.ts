import { accessSync, constants, statSync } from 'node:fs';

/** Linux's memory-backed directory: files there never reach the disk. */
const MEMORY_DIR = '/dev/shm';

/**
 * Where the test runs keep what they throw away (PGlite data directories, servers' data and logs,
 * browser profiles): memory when the machine has it, so that every fresh database is a copy in
 * memory and every commit's fsync costs nothing. On this project's machines the disk is mounted
 * with `discard`, and the suites spent about a fifth of their time writing and deleting there.
 * A TMPDIR the user set is kept: it says where they want such files.
 */
export function useMemoryForScratch(env: NodeJS.ProcessEnv = process.env): void {
  if (env.TMPDIR) return;
  try {
    if (!statSync(MEMORY_DIR).isDirectory()) return;
    accessSync(MEMORY_DIR, constants.W_OK);
  } catch {
    return;
  }
  env.TMPDIR = MEMORY_DIR;
}
