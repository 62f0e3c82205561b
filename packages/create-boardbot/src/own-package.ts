import { readFileSync } from 'node:fs';

/** What create-boardbot reads from its own package.json, which the release tool keeps current. */
export interface OwnPackage {
  /** Its version: every boardbot package is released with the same one (a fixed changesets group). */
  version: string;
  /** The boardbot repository's web address (`repository.url` without `git+` and `.git`). */
  repository: string;
}

/**
 * Reads create-boardbot's package.json, which sits one level above both `src/` and `dist/`.
 *
 * @param url - the package.json to read. @defaultValue this package's
 */
export function ownPackage(url: URL = new URL('../package.json', import.meta.url)): OwnPackage {
  const pkg = JSON.parse(readFileSync(url, 'utf8')) as { version: string; repository?: { url?: string } };
  const repository = (pkg.repository?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '');
  return { version: pkg.version, repository };
}
