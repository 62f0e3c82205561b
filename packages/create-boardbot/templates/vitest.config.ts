import { defineConfig } from 'vitest/config';

// Each test file starts its own in-process emulator, so files run in parallel safely.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 15_000,
    hookTimeout: 30_000,
  },
});
