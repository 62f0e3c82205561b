import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProjects, runCaptured } from '@boardbot/test-support';
import { ensurePlaygroundBuilt } from '../../packages/emulator/test/playground/build-page.js';

/** The repository this test runs in. */
export const root = fileURLToPath(new URL('../../', import.meta.url));

/** One published package, as `npm pack` made it. */
export interface Packed {
  name: string;
  version: string;
  /** The package's directory in the repository, e.g. `packages/core`. */
  dir: string;
  /** The absolute path of its tarball. */
  tarball: string;
  /** The files in the tarball, as `npm pack` lists them. */
  files: string[];
}

/** Every package that is published: each `packages/*` that is not `private`. */
export function publicPackages(): { name: string; version: string; dir: string }[] {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({
      dir: `packages/${d.name}`,
      ...JSON.parse(readFileSync(join(root, 'packages', d.name, 'package.json'), 'utf8')),
    }))
    .filter((pkg) => !pkg.private)
    .map(({ name, version, dir }) => ({ name, version, dir }));
}

/**
 * Builds every public package as a release does (`tsc -b`, and the emulator's playground page) and
 * packs each with `npm pack` into `destination`: the tarballs are exactly what `npm publish` sends.
 *
 * @param destination - a directory for the tarballs
 */
export async function packPublicPackages(destination: string): Promise<Packed[]> {
  const packages = publicPackages();
  await buildProjects(...packages.map((p) => p.dir));
  await ensurePlaygroundBuilt();
  const args = ['pack', '--json', '--pack-destination', destination, ...packages.flatMap((p) => ['-w', p.dir])];
  const { code, output } = await runCaptured('npm', args, root);
  if (code !== 0) throw new Error(`npm pack failed:\n${output}`);
  // npm prints lifecycle noise before the JSON array on some versions: the array starts at the first "[".
  const report = JSON.parse(output.slice(output.indexOf('['))) as {
    name: string;
    version: string;
    filename: string;
    files: { path: string }[];
  }[];
  return report.map((r) => ({
    name: r.name,
    version: r.version,
    dir: packages.find((p) => p.name === r.name)?.dir ?? '',
    tarball: join(destination, r.filename),
    files: r.files.map((f) => f.path),
  }));
}
