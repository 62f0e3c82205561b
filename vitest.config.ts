import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { aiEntryFiles, aiSdkForTests } from './scripts/ai-sdk.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));

// Tests run against the packages' sources, not their builds: every entry point of a package's
// `exports` map (`@boardbot/x`, `@boardbot/x/internal`, ...) resolves to the source file its build
// comes from (`./dist/a/b.js` → `src/a/b.ts`).
const alias = readdirSync(`${root}packages`, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => {
    const pkg = JSON.parse(readFileSync(`${root}packages/${d.name}/package.json`, 'utf8')) as {
      name: string;
      exports?: Record<string, string | { default?: string }>;
    };
    return Object.entries(pkg.exports ?? {}).flatMap(([subpath, target]) => {
      const built = typeof target === 'string' ? target : target.default;
      if (!built?.startsWith('./dist/') || !built.endsWith('.js')) return [];
      const name = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
      const source = `${root}packages/${d.name}/src/${built.slice('./dist/'.length, -'.js'.length)}.ts`;
      return [{ find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`), replacement: source }];
    });
  });

// The AI SDK of this Node (ai 7 on Node 22 and later, ai 6 on Node 20; see scripts/ai-sdk.mjs): the
// bare `ai` and `ai/test` of the tests, the assistant example and the docs' samples resolve to it.
const ai = aiSdkForTests();
if (!ai.installed) {
  throw new Error(
    `The tests on Node ${process.versions.node} use ai ${ai.major}, which is not installed: run \`node scripts/ai-sdk.mjs\` (npm test does).`,
  );
}
const aiAlias = Object.entries(aiEntryFiles(ai.dir)).map(([name, files]) => ({
  find: new RegExp(`^${name.replace('/', '\\/')}$`),
  replacement: files.import,
}));

// `boardbot dev`'s tests run after the rest, one file at a time: each holds a dev session in the
// test's own process, a type check in a thread and bot processes beside it, and times a reload by
// its answers; beside another file on two cores, a reload once waited past its 30 s. The replica
// chaos test too: its four replicas run on a lease of 1.5 s while one is killed every 2 s, and beside
// another file a replica paused past its lease often enough that an event was delivered five times
// and moved to the dead letters (the guard against an event that kills its replicas).
const ALONE = ['packages/cli/test/dev*.test.ts', 'test/scale/chaos.test.ts'];

// The other files share their worker's modules (`isolate: false`): importing the packages' sources
// again for each of ~350 files cost more than half of the suite's time (import 638 s against tests
// 1,821 s, summed, on Node 20). A file that changes what a whole process shares and does not give it
// back keeps a module graph of its own: a module replaced with vi.mock, or OpenTelemetry's global API
// (a propagator, a tracer provider or a context manager registered, whose registrations outlive it):
// they run with the files above, one at a time after the rest, each in a fresh worker.
const testDirs = ['packages', 'examples'].flatMap((parent) =>
  readdirSync(`${root}${parent}`, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(`${root}${parent}/${d.name}/test`))
    .map((d) => `${parent}/${d.name}/test`),
);
const OWN_MODULES = ['test', ...testDirs]
  .flatMap((dir) => readdirSync(`${root}${dir}`, { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`))
  .filter((f) => f.endsWith('.test.ts') && !f.includes('node_modules') && !f.startsWith('test/bench/'))
  .filter((f) => /\bvi\.(mock|doMock)\(|from '@opentelemetry\/api'/.test(readFileSync(`${root}${f}`, 'utf8')));

export default defineConfig({
  resolve: { alias: [...alias, ...aiAlias] },
  test: {
    // CI reads the JSON report to print its one-line summary.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-output/vitest.json' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', 'test/bench/**', ...ALONE, ...OWN_MODULES],
          isolate: false,
          // Vitest's default on two cores is one file at a time, but most slow files wait on the
          // child processes and servers they start (bots, the emulator, redis-server, PostgreSQL): two
          // at a time ran the suite on Node 26 in 894 s instead of 1,056 s.
          maxWorkers: Math.max(availableParallelism() - 1, Math.min(availableParallelism(), 2)),
          sequence: { groupOrder: 0 },
          typecheck: { enabled: true, include: ['packages/*/test/**/*.test-d.ts'] },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: [...ALONE, ...OWN_MODULES],
          exclude: ['**/node_modules/**', '**/dist/**'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
