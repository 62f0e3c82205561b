import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// vitest.config.ts: test files share their worker's modules (isolate: false), so a helper module is
// evaluated once per worker, by the first file that imports it. A hook it registers at its top level
// (afterEach, afterAll...) belongs to that file only: every later file would run without it (the
// gateway helpers' afterEach once left clients reconnecting under later files). Helpers register
// their hooks in a function each file calls, or clean up with onTestFinished.

const root = fileURLToPath(new URL('../../', import.meta.url));
const TOP_LEVEL_HOOK = /^(beforeAll|beforeEach|afterAll|afterEach|aroundAll|aroundEach)\(/m;

/** The TypeScript helper modules of every test directory (not test files, benches or fixtures). */
function helperModules(): string[] {
  const dirs = ['packages', 'examples'].flatMap((parent) =>
    readdirSync(join(root, parent)).map((name) => `${parent}/${name}/test`),
  );
  return ['test', ...dirs, 'packages/test-support/src'].flatMap((dir) => {
    let files: string[];
    try {
      files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' });
    } catch {
      return [];
    }
    return files
      .map((f) => `${dir}/${f}`)
      .filter((f) => /\.m?ts$/.test(f) && !/\.test(-d)?\.ts$|\.bench\.ts$/.test(f))
      .filter((f) => !/\/(node_modules|fixtures|dist|bench)\//.test(f));
  });
}

describe('helper modules shared by the test files of a worker', () => {
  it('register no test hook at their top level', () => {
    const helpers = helperModules();
    expect(helpers.length).toBeGreaterThan(20);
    expect(helpers.filter((f) => TOP_LEVEL_HOOK.test(readFileSync(join(root, f), 'utf8')))).toEqual([]);
  });
});
