import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const file = fileURLToPath(new URL('./node/echo.test.mjs', import.meta.url));

it('works under node --test, on the built package, without vitest', async () => {
  if (!existsSync(built)) throw new Error('@boardbot/testing is not built: run `npx tsc -b` first (npm test does).');
  const { stdout } = await run(process.execPath, ['--test', '--test-reporter=tap', file], { timeout: 60_000 }).catch(
    (error: { stdout?: string; stderr?: string }) => {
      throw new Error(`node --test failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    },
  );
  expect(stdout).toMatch(/^# pass 2$/m);
  expect(stdout).toMatch(/^# fail 0$/m);
  expect(stdout).toContain('ok 1 - the bot echoes');
});
