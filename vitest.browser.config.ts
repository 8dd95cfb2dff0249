import { defineConfig } from 'vitest/config';
import { useMemoryForScratch } from './testing/runner/scratch-dir';

// Before anything asks os.tmpdir(): the workers and the servers they start inherit it.
useMemoryForScratch();

/** Browser tests: real servers started by `npm start`'s script, driven through Chromium. */
export default defineConfig({
  test: {
    include: ['tests/browser/**/*.test.ts'],
    globalSetup: ['tests/browser/global-setup.ts'],
    // One Chromium at a time: the machine has two cores and the servers need one.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for what the page shows to change (a live update, a hydrated form), not
    // for it to be fast: speed is the bench's to measure. Vitest's default (1 s) made a loaded
    // machine's slow refresh a failure.
    expect: { poll: { timeout: 10_000 } },
  },
});
