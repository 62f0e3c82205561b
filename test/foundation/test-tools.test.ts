import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestTools, TEST_TOOLS, toolPath } from '../../scripts/ensure-test-tools.mjs';

const script = fileURLToPath(new URL('../../scripts/ensure-test-tools.mjs', import.meta.url));
const dirs = mkdtempSync(join(tmpdir(), 'boardbot-tools-'));
afterAll(() => rmSync(dirs, { recursive: true, force: true }));

// The real tools of this machine, provided the way `npm test` provides them before any test runs:
// found on the PATH, or installed with apt-get where the machine can (as root on Debian or Ubuntu).
// Run alone, this file needs nothing more than `npm test` does.
const real: Record<string, string | undefined> = {};
let unprovided: string | undefined;
beforeAll(() => {
  unprovided = ensureTestTools();
  for (const tool of TEST_TOOLS) real[tool.name] = toolPath(tool.name);
}, 600_000);

let count = 0;
/** A directory to serve as the whole PATH, holding links to the named real tools and `files`. */
function pathWith(tools: string[], files: Record<string, string> = {}): string {
  if (tools.length > 0)
    expect(unprovided, 'this machine cannot provide the test tools (npm test stops too)').toBeUndefined();
  const bin = join(dirs, `bin-${count++}`);
  mkdirSync(bin);
  for (const tool of tools) symlinkSync(real[tool] as string, join(bin, tool));
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

/** Runs the script in report-only mode with a PATH of `bin` only (node's own directory may hold the tools). */
function check(bin: string, env: Record<string, string> = {}) {
  const { CHROMIUM_PATH: _, ...rest } = process.env;
  return spawnSync(process.execPath, [script, '--check'], { env: { ...rest, PATH: bin, ...env }, encoding: 'utf8' });
}

/** The line the script printed, checked to be its only output, with exit code 1. */
function refusal(r: ReturnType<typeof check>): string {
  expect([r.status, r.stdout]).toEqual([1, '']);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

// Ubuntu's chromium-browser package, in substance: a script that asks for the snap and fails
// without it (here it looks for the snap where none can be).
const SNAP_STAND_IN = `#!/bin/sh
if ! [ -x /nonexistent/snap/bin/chromium ]; then
  echo "Command '$0' requires the chromium snap to be installed." >&2
  echo "Please install it with:" >&2
  echo "snap install chromium" >&2
  exit 1
fi
exec /snap/bin/chromium "$@"
`;

describe('scripts/ensure-test-tools.mjs', () => {
  it('fails with one line naming every missing tool and the packages to install', () => {
    expect(refusal(check(pathWith([])))).toBe(
      'npm test needs chromium, redis-server, promtool, postgres: install them (Debian/Ubuntu, as root: apt-get install chromium fonts-dejavu-core redis-server prometheus postgresql), or set CHROMIUM_PATH to a Chromium or Chrome.',
    );
  });

  it('passes quietly when every tool is there, with Chromium from the PATH or from CHROMIUM_PATH', () => {
    const all = pathWith(['chromium', 'redis-server', 'promtool', 'postgres']);
    expect([check(all).status, check(all).stderr]).toEqual([0, '']);
    const noChromium = pathWith(['redis-server', 'promtool', 'postgres']);
    expect(refusal(check(noChromium))).toMatch(/^npm test needs chromium: install them /);
    const r = check(noChromium, { CHROMIUM_PATH: real.chromium as string });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });

  it('names Ubuntu’s snap stand-in for chromium, and says what to install instead', () => {
    const bin = pathWith(['redis-server', 'promtool', 'postgres'], { 'chromium-browser': SNAP_STAND_IN });
    const line = refusal(check(bin));
    expect(line).toContain(
      `npm test needs chromium: ${join(bin, 'chromium-browser')} is Ubuntu's stand-in for the chromium snap`,
    );
    expect(line).toContain('snap install chromium');
    expect(line).toContain('set CHROMIUM_PATH');
    // The other missing tools are named in the same line.
    const alone = refusal(check(pathWith([], { chromium: SNAP_STAND_IN })));
    expect(alone).toMatch(
      /^npm test needs redis-server, promtool, postgres: install them .*; and chromium: .* stand-in for the chromium snap/,
    );
  });

  it('refuses a CHROMIUM_PATH that is not an executable that runs, without falling back to the system’s', () => {
    const bin = pathWith(['chromium', 'redis-server', 'promtool', 'postgres'], {
      fails: '#!/bin/sh\nexit 3\n',
      stand_in: SNAP_STAND_IN,
    });
    const text = join(dirs, 'not-executable');
    writeFileSync(text, 'not a browser');
    const cases: [string, RegExp][] = [
      [join(dirs, 'nowhere'), /is not an executable file: point it to a Chromium or Chrome executable/],
      [dirs, /is not an executable file/],
      [text, /is not an executable file/],
      [join(bin, 'fails'), /does not run \(`.*fails --version` exited with 3\): point it to a Chromium/],
      [join(bin, 'stand_in'), /is Ubuntu's stand-in for the chromium snap/],
    ];
    for (const [path, expected] of cases) {
      const line = refusal(check(bin, { CHROMIUM_PATH: path }));
      expect(line.startsWith(`npm test needs chromium: CHROMIUM_PATH=${path} `), line).toBe(true);
      expect(line).toMatch(expected);
    }
  });

  it('finds Debian’s PostgreSQL off the PATH, the newest of lib/postgresql/<version>/bin beside the PATH’s bin', () => {
    const prefix = join(dirs, 'debian-prefix');
    const server = (version: string, files: string[]) => {
      const bin = join(prefix, 'lib', 'postgresql', version, 'bin');
      mkdirSync(bin, { recursive: true });
      for (const name of files) {
        writeFileSync(join(bin, name), '#!/bin/sh\n');
        chmodSync(join(bin, name), 0o755);
      }
    };
    server('9', ['postgres', 'initdb']);
    server('15', ['postgres', 'initdb']);
    // A newer version whose initdb is missing (a half-removed package) is passed over.
    server('16', ['postgres']);
    const bin = join(prefix, 'bin');
    mkdirSync(bin);
    const located = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `import { toolPath } from '${script}'; console.log(toolPath('postgres'))`],
      { env: { ...process.env, PATH: bin }, encoding: 'utf8' },
    );
    expect(located.stdout.trim()).toBe(join(prefix, 'lib', 'postgresql', '15', 'bin', 'postgres'));
    const rest = pathWith(['chromium', 'redis-server', 'promtool']);
    const r = check(bin, { PATH: `${rest}:${bin}` });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });
});
