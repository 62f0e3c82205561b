import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { buildProjects, tempDir } from '@boardbot/test-support';
import { beforeAll, describe, expect, it } from 'vitest';

// `npx boardbot` in a clone must run this repository's CLI, never ask the registry for a package
// named `boardbot`: npm links a bin at install only if its file exists, so every bin is a file of
// the source tree (in every clone), not a build output.

const root = new URL('../../../', import.meta.url).pathname;
const tracked = new Set(execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n'));

beforeAll(() => buildProjects('packages/cli'), 180_000);

describe('the boardbot bin', () => {
  it('is, like every bin of every workspace package, a file tracked by git', () => {
    const bins = ['packages', 'examples'].flatMap((dir) =>
      [...tracked]
        .filter((f) => new RegExp(`^${dir}/[^/]+/package\\.json$`).test(f))
        .flatMap((manifest) => {
          const { bin } = JSON.parse(readFileSync(join(root, manifest), 'utf8')) as { bin?: Record<string, string> };
          return Object.values(bin ?? {}).map((target) => join(manifest, '..', target));
        }),
    );
    expect(bins).toContain('packages/cli/bin/boardbot.js');
    for (const bin of bins) expect(tracked.has(bin), `${bin} is not in git: npm links it only once built`).toBe(true);
  });

  it('is what the install linked as node_modules/.bin/boardbot, and runs the built CLI', () => {
    expect(realpathSync(join(root, 'node_modules/.bin/boardbot'))).toBe(join(root, 'packages/cli/bin/boardbot.js'));
    const version = JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')).version as string;
    const run = spawnSync(process.execPath, [join(root, 'packages/cli/bin/boardbot.js'), '--version'], {
      encoding: 'utf8',
    });
    expect(run.stdout.trim(), run.stderr).toBe(version);
    expect(run.status).toBe(0);
  });

  it('says how to build the CLI, with exit code 1, before it is built', () => {
    const temp = tempDir('boardbot-bin-');
    try {
      mkdirSync(join(temp.dir, 'bin'));
      copyFileSync(join(root, 'packages/cli/bin/boardbot.js'), join(temp.dir, 'bin/boardbot.js'));
      const run = spawnSync(process.execPath, [join(temp.dir, 'bin/boardbot.js'), 'dev'], { encoding: 'utf8' });
      expect(run.stderr).toMatch(/the CLI is not built yet .*run `npm run build`/);
      expect(run.status).toBe(1);
    } finally {
      temp.remove();
    }
  });
});
