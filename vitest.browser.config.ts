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
  },
});
