import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
// Tests run against the packages' sources, not their builds, so `@boardbot/x` resolves to src.
const alias = readdirSync(`${root}packages`, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => ({ find: new RegExp(`^@boardbot/${d.name}$`), replacement: `${root}packages/${d.name}/src/index.ts` }));

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'test/bench/**'],
    // CI reads the JSON report to print its one-line summary.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-output/vitest.json' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    typecheck: { enabled: true, include: ['packages/*/test/**/*.test-d.ts'] },
  },
});
