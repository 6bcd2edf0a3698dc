import { defineConfig } from 'vitest/config';

// End-to-end tests drive Debian's Chromium against a real headless Skein; one file at a time
// keeps two browsers from fighting over 2 cores.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
