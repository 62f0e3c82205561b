import { join } from 'node:path';
import { buildProjects, runCaptured, tempDir } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCreate } from '../src/index.js';
import { checkout, recordingIo } from './support.js';

// The whole path of a new user, for real: scaffold with --local into a temp dir outside the checkout,
// `npm install` (the boardbot packages are file: links to the checkout's built packages, the others
// come from the registry), then the new project's typecheck, tests and build. One install: it is slow.
describe('a scaffolded project', () => {
  const temp = tempDir('create-boardbot-');
  // The new project links to the checkout's built packages: build them first (a no-op when up to date).
  beforeAll(() => buildProjects('packages/cli', 'packages/testing'), 300_000);
  afterAll(() => temp.remove());

  it('installs, type-checks, passes its own tests and builds', { timeout: 600_000 }, async () => {
    const io = recordingIo(temp.dir, async (command, args, cwd) => {
      const { code, output } = await runCaptured(command, args, cwd);
      if (code !== 0) io.err(output);
      return code;
    });
    const created = await runCreate(['e2e-bot', '--local', checkout], io);
    expect(created, io.errors.join('\n')).toBe(0);
    const dir = join(temp.dir, 'e2e-bot');

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
