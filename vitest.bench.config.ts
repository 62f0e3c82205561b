import { defineConfig, type ViteUserConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run bench`: every test/bench/*.bench.ts, one file at a time so figures do not compete for the
// two cores, then one table printed by the global teardown. Same source aliases as the tests.
export default defineConfig({
  resolve: (base as ViteUserConfig).resolve ?? {},
  test: {
    include: ['test/bench/**/*.bench.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
    globalSetup: ['test/bench/lib/report.ts'],
  },
});
