// The system tools the tests need, found or installed before `npm test` runs them: Chromium for the
// playground's browser tests, `redis-server`, `promtool` and PostgreSQL's `postgres` for the tests of
// later work. A missing tool
// is installed with apt-get when this machine can (root and apt-get: a fresh Debian or Ubuntu, CI);
// otherwise the run stops with one line saying what to install. `.ci/system-deps` runs it too.
//
// `node scripts/ensure-test-tools.mjs` installs what is missing; `--check` only reports.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The tools, each with the Debian package that provides it. */
export const TEST_TOOLS = [
  { name: 'chromium', packages: ['chromium', 'fonts-dejavu-core'] },
  { name: 'redis-server', packages: ['redis-server'] },
  { name: 'promtool', packages: ['prometheus'] },
  { name: 'postgres', packages: ['postgresql'] },
];

const CHROMIUM_FIX = 'or set CHROMIUM_PATH to a Chromium or Chrome';

function isExecutableFile(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The path of `command` on the PATH, the way a shell finds it.
 *
 * @param command - a command name, e.g. `redis-server`
 * @returns its path, or `undefined`.
 */
export function locateTool(command) {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, command))
    .find(isExecutableFile);
}

/**
 * Where PostgreSQL's server (`postgres`, with `initdb` beside it) is: on the PATH, or where Debian and
 * Ubuntu install it, off the PATH in `<prefix>/lib/postgresql/<major version>/bin` beside the PATH's
 * `<prefix>/bin` (the newest version when several are installed).
 *
 * @returns the path of `postgres`, or `undefined`.
 */
export function locatePostgres() {
  const onPath = locateTool('postgres');
  if (onPath !== undefined) return onPath;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const versions = join(dirname(dir), 'lib', 'postgresql');
    let names;
    try {
      names = readdirSync(versions).filter((name) => /^\d+$/.test(name));
    } catch {
      continue;
    }
    for (const version of names.sort((a, b) => Number(b) - Number(a))) {
      const server = join(versions, version, 'bin', 'postgres');
      if (isExecutableFile(server) && isExecutableFile(join(versions, version, 'bin', 'initdb'))) return server;
    }
  }
  return undefined;
}

// How a browser fared when asked for its version: 0 when it runs; otherwise why not.
function versionRun(file) {
  const r = spawnSync(file, ['--version'], { stdio: 'ignore', timeout: 30_000 });
  if (r.error) return `\`${file} --version\` failed (${r.error.code ?? r.error.message})`;
  return r.status === 0 ? 0 : `\`${file} --version\` exited with ${r.status ?? r.signal}`;
}

// Ubuntu's `chromium-browser` (and `chromium`) package is a shell script that asks for the chromium
// snap, and /snap/bin/chromium is a link to snap itself: neither runs where snapd does not.
function isSnapStandIn(file) {
  try {
    if (basename(realpathSync(file)) === 'snap') return true;
    const fd = openSync(file, 'r');
    const head = Buffer.alloc(4096);
    const read = readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    const text = head.subarray(0, read).toString('latin1');
    return text.startsWith('#!') && /\bsnap\b/.test(text);
  } catch {
    return false;
  }
}

/**
 * Where the browser tests' Chromium is, or why there is none: `CHROMIUM_PATH` when set (it must be
 * an executable file that runs `--version`; a wrong one is refused rather than replaced), else
 * `chromium` or `chromium-browser` on the PATH, if it runs.
 *
 * @returns `{ path }`, or `{ problem }`: the clause of the line to print (`undefined` when simply
 * none is installed).
 */
export function findChromium() {
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    const fix = 'point it to a Chromium or Chrome executable, or unset it to use the system’s';
    if (!isExecutableFile(given)) return { problem: `CHROMIUM_PATH=${given} is not an executable file: ${fix}` };
    if (isSnapStandIn(given)) return { problem: `CHROMIUM_PATH=${given} ${snapProblem()}` };
    const run = versionRun(given);
    return run === 0 ? { path: given } : { problem: `CHROMIUM_PATH=${given} does not run (${run}): ${fix}` };
  }
  let problem;
  for (const file of ['chromium', 'chromium-browser'].map(locateTool)) {
    if (file === undefined) continue;
    if (versionRun(file) === 0) return { path: file };
    problem ??= isSnapStandIn(file) ? `${file} ${snapProblem()}` : undefined;
  }
  return { problem };
}

function snapProblem() {
  return `is Ubuntu's stand-in for the chromium snap, which is not installed: run \`snap install chromium\` where snapd runs, ${CHROMIUM_FIX} (Google Chrome's .deb, or Debian's chromium package)`;
}

/**
 * The Chromium the browser tests launch: `CHROMIUM_PATH` when set and it runs, else `chromium` (or
 * `chromium-browser`) on the PATH, if it runs.
 *
 * @returns its path, or `undefined`.
 */
export function chromiumPath() {
  return findChromium().path;
}

/** What is missing: each tool not found, with the clause that says why when it is more than absence. */
function missingTools() {
  return TEST_TOOLS.flatMap((tool) => {
    if (tool.name !== 'chromium') return toolPath(tool.name) === undefined ? [{ tool }] : [];
    const chromium = findChromium();
    return chromium.path === undefined ? [{ tool, problem: chromium.problem }] : [];
  });
}

/**
 * Where a test tool is on this machine, so a test can run it and say what to install when it is not.
 *
 * @param name - a tool of `TEST_TOOLS`, e.g. `redis-server`.
 * @returns its path, or `undefined`.
 */
export function toolPath(name) {
  if (!TEST_TOOLS.some((t) => t.name === name)) return undefined;
  if (name === 'chromium') return chromiumPath();
  return name === 'postgres' ? locatePostgres() : locateTool(name);
}

function canInstall() {
  return process.platform === 'linux' && process.getuid?.() === 0 && locateTool('apt-get') !== undefined;
}

// One apt-get per tool: a package this distribution lacks (Ubuntu has no chromium deb) must not stop
// the others from installing.
function installWithApt(tools) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => execFileSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`Installing what the tests need with apt-get: ${tools.flatMap((t) => t.packages).join(' ')}`);
  apt(['update', '-qq']);
  for (const tool of tools) {
    try {
      apt(['install', '-y', '-qq', '--no-install-recommends', ...tool.packages]);
    } catch {
      // The line at the end says what is still missing; apt-get has printed why.
    }
  }
}

function missingLine(missing) {
  const absent = missing.filter((m) => m.problem === undefined).map((m) => m.tool);
  const clauses = [];
  if (absent.length > 0) {
    const packages = absent.flatMap((t) => t.packages).join(' ');
    const chromium = absent.some((t) => t.name === 'chromium') ? `, ${CHROMIUM_FIX}` : '';
    clauses.push(
      `${absent.map((t) => t.name).join(', ')}: install them (Debian/Ubuntu, as root: apt-get install ${packages})${chromium}`,
    );
  }
  for (const m of missing.filter((m) => m.problem !== undefined)) clauses.push(`${m.tool.name}: ${m.problem}`);
  return `npm test needs ${clauses.join('; and ')}.`;
}

/**
 * Finds every test tool, installing the missing ones with apt-get where this machine can (not a
 * Chromium that `CHROMIUM_PATH` names: that one is the user's to fix).
 *
 * @param options - `install: false` only reports.
 * @returns the one line to print when something is still missing, else `undefined`.
 */
export function ensureTestTools({ install = true } = {}) {
  let missing = missingTools();
  const installable = missing.filter((m) => m.tool.name !== 'chromium' || !process.env.CHROMIUM_PATH);
  if (installable.length > 0 && install && canInstall()) {
    try {
      installWithApt(installable.map((m) => m.tool));
    } catch {
      // apt-get update failed and printed why; the line below says what is missing.
    }
    missing = missingTools();
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
