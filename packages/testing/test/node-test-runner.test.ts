import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildProjects } from '@boardbot/test-support';
import { beforeAll, expect, it } from 'vitest';

const run = promisify(execFile);
const file = fileURLToPath(new URL('./node/echo.test.mjs', import.meta.url));

beforeAll(() => buildProjects('packages/testing'), 180_000);

it('works under node --test, on the built package, without vitest', async () => {
  const { stdout } = await run(process.execPath, ['--test', '--test-reporter=tap', file], { timeout: 60_000 }).catch(
    (error: { stdout?: string; stderr?: string }) => {
      throw new Error(`node --test failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    },
  );
  expect(stdout).toMatch(/^# pass 2$/m);
  expect(stdout).toMatch(/^# fail 0$/m);
  expect(stdout).toContain('ok 1 - the bot echoes');
});
