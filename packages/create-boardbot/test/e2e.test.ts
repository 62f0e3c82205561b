import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProjects, runCaptured, tempDir } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePlaygroundBuilt } from '../../emulator/test/playground/build-page.js';
import { checkout } from './support.js';

// The from-a-clone path of docs/getting-started.md, for real: its one command, run as written after
// the clone (this checkout stands for the clone), creates the project with --local in a temp dir
// outside the checkout and installs it (the boardbot packages are file: links to the checkout's built
// packages, the others come from the registry); then the new project's typecheck, tests and build.
// The registry path (`npm create boardbot@latest`) is test/publish/registry.test.ts.
const guide = readFileSync(join(checkout, 'docs/getting-started.md'), 'utf8');
const [, command = ''] = /^git clone \S+ boardbot && (.+)$/m.exec(guide) ?? [];

describe('a project created from a clone', () => {
  const temp = tempDir('create-boardbot-');
  // What the command builds, built first under the tests' locks (a no-op when up to date), so that
  // it finds everything built and changes nothing in the checkout while other tests read it.
  beforeAll(async () => {
    await buildProjects('packages/cli', 'packages/testing', 'packages/create-boardbot');
    await ensurePlaygroundBuilt();
  }, 300_000);
  afterAll(() => temp.remove());

  it('is the one command getting-started gives', () => {
    expect(command).toBe('npm --prefix boardbot run new-bot -- my-bot');
  });

  it('installs, type-checks, passes its own tests and builds', { timeout: 600_000 }, async () => {
    const args = command.split(' ').slice(1);
    args[args.indexOf('boardbot')] = checkout;
    const created = await runCaptured('npm', args, temp.dir);
    expect(created.code, created.output).toBe(0);
    const dir = join(temp.dir, 'my-bot');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.dependencies['@boardbot/core']).toBe(`file:${join(checkout, 'packages', 'core')}`);

    const typecheck = await runCaptured('npm', ['run', 'typecheck'], dir);
    expect(typecheck.code, typecheck.output).toBe(0);

    const test = await runCaptured('npm', ['test'], dir);
    expect(test.code, test.output).toBe(0);
    expect(test.output).toMatch(/Tests\s+.*4 passed/);

    const build = await runCaptured('npm', ['run', 'build'], dir);
    expect(build.code, build.output).toBe(0);
    // `boardbot commands list` reads the built handlers: the CLI is linked into the project.
    const list = await runCaptured('npx', ['boardbot', 'commands', 'list'], dir);
    expect(list.code, list.output).toBe(0);
    expect(list.output).toContain('/greet  Greets someone by name');
  });
});
