// Where boardbot's code lives is one line: `repository.url` in the root package.json. This copies it
// to every place that names it: each published package's `repository` (npm shows it, and
// create-boardbot reads its own for the new project's README) and the clone command in
// docs/getting-started.md. `--check` changes nothing and exits 1 listing what differs (a test runs it).
//
// To move the repository: change `repository.url` in package.json, then `npm run sync-repository`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));

/** The one place: the root package.json's `repository.url` (npm's `git+https://….git` form). */
export function repositoryUrl() {
  const url = readJson('package.json').repository?.url;
  if (typeof url !== 'string') throw new Error('package.json has no repository.url: add the one line first.');
  return url;
}

/** The URL `git clone` takes: npm's form without the `git+` prefix. */
export function cloneUrl(url = repositoryUrl()) {
  return url.replace(/^git\+/, '');
}

const CLONE = /^git clone \S+ boardbot && /m;

/**
 * Every file that names the repository, with its text as it is and as it should be.
 * @returns `{ path, now, wanted }` per file
 */
export function repositoryMentions() {
  const url = repositoryUrl();
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `packages/${d.name}/package.json`)
    .filter((path) => !readJson(path).private)
    .map((path) => {
      const now = readFileSync(join(root, path), 'utf8');
      const pkg = JSON.parse(now);
      pkg.repository = { type: 'git', url, directory: path.replace('/package.json', '') };
      return { path, now, wanted: `${JSON.stringify(pkg, null, 2)}\n` };
    });
  const guide = 'docs/getting-started.md';
  const now = readFileSync(join(root, guide), 'utf8');
  if (!CLONE.test(now)) throw new Error(`${guide} has no line starting "git clone <url> boardbot && ".`);
  const wanted = now.replace(CLONE, `git clone ${cloneUrl(url)} boardbot && `);
  return [...packages, { path: guide, now, wanted }];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const stale = repositoryMentions().filter((m) => m.now !== m.wanted);
  if (process.argv.includes('--check')) {
    for (const m of stale) console.log(`${m.path} does not name ${repositoryUrl()}`);
    if (stale.length > 0) console.log('Fix: npm run sync-repository');
    process.exit(stale.length > 0 ? 1 : 0);
  }
  for (const m of stale) writeFileSync(join(root, m.path), m.wanted);
  console.log(`${stale.length} file(s) now name ${repositoryUrl()}`);
}
