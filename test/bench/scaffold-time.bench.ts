import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProjects, runCaptured } from '@boardbot/test-support';
import { afterAll, beforeAll, it } from 'vitest';
import { record } from './lib/record.js';

// `create-boardbot` to a green `npm test`, on the Node running this file, as the scaffolder's e2e
// test does it: `--local` links to this checkout's built packages, everything else comes from the
// npm cache (warm: this repository's own install filled it). On Node 20 the new project gets
// better-sqlite3, which compiles from source where its prebuilt binary cannot be downloaded (as
// here); on Node 24 it uses node:sqlite and builds nothing. The baseline is the floor of any such
// project in the same run: a project with only TypeScript and vitest, installed and tested.
//
// Run it alone, on each Node: `npx vitest run --config vitest.bench.config.ts test/bench/scaffold-time.bench.ts`
// (with `PATH=<node 24>/bin:$PATH` for Node 24).

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'boardbot-bench-scaffold-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => buildProjects('packages/cli', 'packages/testing', 'packages/create-boardbot'), 300_000);

/** Runs a command to completion; resolves with its wall time in seconds, throws with its output if it fails. */
async function timed(command: string, args: string[], cwd: string): Promise<number> {
  const start = performance.now();
  const { code, output } = await runCaptured(command, args, cwd);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${code}):\n${output}`);
  return (performance.now() - start) / 1000;
}

function baselineProject(): string {
  const project = join(dir, 'baseline');
  mkdirSync(join(project, 'test'), { recursive: true });
  const pkg = {
    name: 'baseline',
    private: true,
    type: 'module',
    scripts: { test: 'vitest run' },
    devDependencies: { typescript: '~5.9.3', vitest: '^4.1.12', '@types/node': '^20.19.43' },
  };
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(
    join(project, 'test/sum.test.ts'),
    "import { expect, it } from 'vitest';\nit('adds', () => expect(1 + 1).toBe(2));\n",
  );
  return project;
}

it('scaffolds a project and gets its npm test green in under 60 s on Node 24', async () => {
  const baseline = baselineProject();
  const baseInstall = await timed('npm', ['install', '--no-audit', '--no-fund'], baseline);
  const baseTest = await timed('npm', ['test'], baseline);

  const create = join(root, 'packages/create-boardbot/dist/bin.js');
  const scaffold = await timed(process.execPath, [create, 'bench-bot', '--local', root], dir);
  const test = await timed('npm', ['test'], join(dir, 'bench-bot'));
  const total = scaffold + test;
  const node = `node ${process.versions.node}`;
  record(
    {
      bench: 'create-boardbot: to a green npm test',
      subject: `TypeScript + vitest project: install, test (baseline, ${node})`,
      value: baseInstall + baseTest,
      unit: 's',
      ratio: 1,
      note: `install ${baseInstall.toFixed(1)} s, test ${baseTest.toFixed(1)} s`,
    },
    {
      bench: 'create-boardbot: to a green npm test',
      subject: `create-boardbot --local, then npm test (${node})`,
      value: total,
      unit: 's',
      ratio: total / (baseInstall + baseTest),
      note: `scaffold + install ${scaffold.toFixed(1)} s, test ${test.toFixed(1)} s; target < 60 s on Node 24`,
    },
  );
}, 900_000);
