// The system tools the tests need, found or installed before `npm test` runs them: Chromium for the
// playground's browser tests, `redis-server` and `promtool` for the tests of later work. A missing tool
// is installed with apt-get when this machine can (root and apt-get: a fresh Debian or Ubuntu, CI);
// otherwise the run stops with one line saying what to install. `.ci/system-deps` runs it too.
//
// `node scripts/ensure-test-tools.mjs` installs what is missing; `--check` only reports.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The tools, each with the Debian package that provides it. */
export const TEST_TOOLS = [
  { name: 'chromium', packages: ['chromium', 'fonts-dejavu-core'] },
  { name: 'redis-server', packages: ['redis-server'] },
  { name: 'promtool', packages: ['prometheus'] },
];

function onPath(command) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  return undefined;
}

// Ubuntu's `chromium` is a stub that asks for a snap: a browser counts only if it runs.
function runs(file) {
  return spawnSync(file, ['--version'], { stdio: 'ignore', timeout: 30_000 }).status === 0;
}

/**
 * The Chromium the browser tests launch: `CHROMIUM_PATH` when set, else `chromium` (or
 * `chromium-browser`) on the PATH, if it runs.
 *
 * @returns its path, or `undefined`.
 */
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return ['chromium', 'chromium-browser'].map(onPath).find((file) => file !== undefined && runs(file));
}

function find(tool) {
  return tool.name === 'chromium' ? chromiumPath() : onPath(tool.name);
}

/**
 * Where a test tool is on this machine, so a test can run it and say what to install when it is not.
 *
 * @param name - a tool of `TEST_TOOLS`, e.g. `redis-server`.
 * @returns its path, or `undefined`.
 */
export function toolPath(name) {
  const tool = TEST_TOOLS.find((t) => t.name === name);
  return tool ? find(tool) : undefined;
}

function canInstall() {
  return process.platform === 'linux' && process.getuid?.() === 0 && onPath('apt-get') !== undefined;
}

function installWithApt(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => execFileSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`Installing what the tests need with apt-get: ${packages.join(' ')}`);
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
}

function missingLine(missing) {
  const packages = missing.flatMap((t) => t.packages).join(' ');
  const chromium = missing.some((t) => t.name === 'chromium') ? ', or set CHROMIUM_PATH to a Chromium or Chrome' : '';
  return `npm test needs ${missing.map((t) => t.name).join(', ')}: install them (Debian/Ubuntu, as root: apt-get install ${packages})${chromium}.`;
}

/**
 * Finds every test tool, installing the missing ones with apt-get where this machine can.
 *
 * @param options - `install: false` only reports.
 * @returns the one line to print when something is still missing, else `undefined`.
 */
export function ensureTestTools({ install = true } = {}) {
  let missing = TEST_TOOLS.filter((tool) => find(tool) === undefined);
  if (missing.length > 0 && install && canInstall()) {
    try {
      installWithApt(missing.flatMap((t) => t.packages));
    } catch {
      // The line below says what is still missing; apt-get has printed why.
    }
    missing = TEST_TOOLS.filter((tool) => find(tool) === undefined);
  }
  return missing.length > 0 ? missingLine(missing) : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problem = ensureTestTools({ install: !process.argv.includes('--check') });
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
