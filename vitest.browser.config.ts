import { defineConfig } from 'vitest/config';

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
