import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildProjects } from '@boardbot/test-support';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** Runs `scripts/api-report.mjs --check`; resolves with its exit code and its error output. */
async function check(): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, ['scripts/api-report.mjs', '--check'], { cwd: root });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, stderr: failed.stderr ?? '' };
  }
}

// The reports are read from the built declarations: build every package first (a no-op when fresh).
const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => `packages/${d.name}`);
beforeAll(() => buildProjects(...packages), 300_000);

describe('the public API reports (packages/*/api)', () => {
  it('match what each public entry point exports', async () => {
    const { code, stderr } = await check();
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 120_000);

  it('fail the check, naming the package, when a report no longer matches', async () => {
    const report = join(root, 'packages/cli/api/index.api.md');
    const kept = readFileSync(report, 'utf8');
    try {
      writeFileSync(report, kept.replace('export function runCli', 'export function runCliRenamed'));
      const { code, stderr } = await check();
      expect(code).toBe(1);
      expect(stderr).toContain('The public API changed without its report: @boardbot/cli.');
      expect(stderr).toContain('npm run api');
    } finally {
      writeFileSync(report, kept);
    }
  }, 120_000);
});
