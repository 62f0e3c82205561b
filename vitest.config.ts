import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The subpath exports of a package besides `.`, e.g. `./control` → `./dist/control/index.js`. */
function subpaths(dir: string): [string, string][] {
  const { exports = {} } = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as {
    exports?: Record<string, string | { default?: string }>;
  };
  return Object.entries(exports).flatMap(([sub, target]) => {
    const file = typeof target === 'string' ? target : target.default;
    return sub !== '.' && file?.startsWith('./dist/') && file.endsWith('.js') ? [[sub.slice(2), file]] : [];
  });
}

// Tests run against the packages' sources, not their builds, so `@boardbot/x` resolves to src, and a
// subpath export `@boardbot/x/y` (built to `dist/y/index.js`) to `src/y/index.ts`.
const alias = readdirSync(`${root}packages`, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => {
    const dir = `${root}packages/${d.name}`;
    return [
      { find: new RegExp(`^@boardbot/${d.name}$`), replacement: `${dir}/src/index.ts` },
      ...subpaths(dir).map(([sub, file]) => ({
        find: new RegExp(`^@boardbot/${d.name}/${sub}$`),
        replacement: `${dir}/src/${file.slice('./dist/'.length, -'.js'.length)}.ts`,
      })),
    ];
  });

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
