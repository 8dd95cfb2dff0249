import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { useMemoryForScratch } from './testing/runner/scratch-dir';

// Before anything asks os.tmpdir(): the workers and the servers they start inherit it.
useMemoryForScratch();

export default defineConfig({
  resolve: {
    alias: {
      ninefold: path.resolve(__dirname, 'src/engine/spec/index.ts'),
      '@': path.resolve(__dirname, 'src'),
      '@testing': path.resolve(__dirname, 'testing'),
    },
  },
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Vitest's default leaves a core free (one worker on two cores), but integration tests spend
    // much of their time waiting on PostgreSQL or PGlite's worker: two forks on two cores finish
    // the suite in four fifths of the time (measured here: about 640 s → 503 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker keeps the modules it loaded from one file to the next instead of loading the engine
    // again for each of ~190 files (measured here: 408 s → 341 s). Every suite opens its own
    // databases and no test leaves process state behind (environment, globals, timers, mocks).
    isolate: false,
  },
});
