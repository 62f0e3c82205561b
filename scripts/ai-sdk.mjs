// Which AI SDK (`ai`) the tests use, by Node version, and its install. boardbot supports `ai` 6 and
// 7; ai 7 declares Node >= 22. The repository's own install holds ai 6 (`node_modules/ai`, made on
// Node 20 too, where an ai 7 in it would be an engine warning on every `npm install`); ai 7 is a
// small project of its own, `test/ai-sdk-7` (its lockfile pins it), installed on Node 22 and later
// only, its peer zod left to resolve to the repository's. The test configuration points the bare
// `ai` of the tests, the example and the docs' samples at the major this Node runs with.
//
// `node scripts/ai-sdk.mjs` installs what this Node needs (nothing on Node 20); `npm test` runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The project that holds ai 7 for the tests. */
export const AI_SDK_7_PROJECT = join(root, 'test', 'ai-sdk-7');

/**
 * The AI SDK the tests run with on this Node: ai 7 from `test/ai-sdk-7` on Node 22 and later, else
 * the repository's ai 6.
 *
 * @param nodeVersion - a Node version, e.g. `process.versions.node`
 * @returns its major, the directory of the package, and whether it is installed
 */
export function aiSdkForTests(nodeVersion = process.versions.node) {
  const major = Number(nodeVersion.split('.')[0]) >= 22 ? 7 : 6;
  const dir = major === 7 ? join(AI_SDK_7_PROJECT, 'node_modules', 'ai') : join(root, 'node_modules', 'ai');
  const manifest = join(dir, 'package.json');
  const version = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
  return { major, dir, installed: version !== undefined && Number(version.split('.')[0]) === major, version };
}

/**
 * The files the package `ai` in `dir` gives for `ai` and `ai/test`: for imports (its `exports`
 * map's `import` or `default`) and for types (`types`).
 *
 * @param dir - the package's directory
 */
export function aiEntryFiles(dir) {
  const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entry = (subpath, condition) => {
    const target = exports[subpath];
    const file = condition === 'types' ? target.types : (target.import ?? target.default);
    return join(dir, typeof file === 'string' ? file : file.default);
  };
  return Object.fromEntries(
    ['.', './test'].map((subpath) => [
      subpath === '.' ? 'ai' : 'ai/test',
      { import: entry(subpath, 'import'), types: entry(subpath, 'types') },
    ]),
  );
}

/**
 * Installs the AI SDK this Node's tests use when it is missing (ai 7 on Node 22 and later), from
 * `test/ai-sdk-7`'s lockfile.
 *
 * @returns the line to print when it could not be installed, else `undefined`
 */
export function ensureAiSdk() {
  const sdk = aiSdkForTests();
  if (sdk.installed || sdk.major !== 7) return undefined;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--omit=peer', '--no-audit', '--no-fund'], {
    cwd: AI_SDK_7_PROJECT,
    stdio: 'inherit',
  });
  if (run.status === 0 && aiSdkForTests().installed) return undefined;
  return `npm test on Node ${process.versions.node} needs ai 7: \`npm ci --omit=peer\` in test/ai-sdk-7 failed (output above).`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problem = ensureAiSdk();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
