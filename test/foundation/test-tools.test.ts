import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumPath, TEST_TOOLS } from '../../scripts/ensure-test-tools.mjs';

const script = fileURLToPath(new URL('../../scripts/ensure-test-tools.mjs', import.meta.url));
const bin = mkdtempSync(join(tmpdir(), 'boardbot-tools-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** Runs the script in report-only mode with a PATH of `bin` only (node's own directory may hold the tools). */
function check(env: Record<string, string> = {}) {
  const { CHROMIUM_PATH: _, ...rest } = process.env;
  return spawnSync(process.execPath, [script, '--check'], { env: { ...rest, PATH: bin, ...env }, encoding: 'utf8' });
}

describe('scripts/ensure-test-tools.mjs', () => {
  it('fails with one line naming every missing tool and the packages to install', () => {
    const r = check();
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      'npm test needs chromium, redis-server, promtool: install them (Debian/Ubuntu, as root: apt-get install chromium fonts-dejavu-core redis-server prometheus), or set CHROMIUM_PATH to a Chromium or Chrome.',
    ]);
  });

  it('passes quietly when every tool is there, with Chromium from CHROMIUM_PATH', () => {
    // The real tools of this machine, under a PATH that holds nothing else.
    for (const tool of TEST_TOOLS.filter((t) => t.name !== 'chromium')) {
      const found = spawnSync('sh', ['-c', `command -v ${tool.name}`], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(found, join(bin, tool.name));
    }
    expect(check().stderr).toMatch(/^npm test needs chromium: /);
    const r = check({ CHROMIUM_PATH: chromiumPath() as string });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
