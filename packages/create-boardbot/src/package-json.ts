import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CreateBoardbotError } from './errors.js';
import { hasNodeSqlite } from './sqlite.js';
import { BOARDBOT_PACKAGES, DEPENDENCY_VERSIONS } from './versions.js';

/** Where the `@boardbot/*` packages come from: the registry, or a local checkout of the repository. */
export type PackageSource = { kind: 'registry' } | { kind: 'local'; checkout: string };

/**
 * Checks that `checkout` is a built boardbot repository, so that `file:` dependencies on its
 * packages work: npm links them as they are and never builds them.
 *
 * @param checkout - path of the repository
 * @returns the absolute path
 */
export function checkLocalCheckout(checkout: string): string {
  const root = resolve(checkout);
  const dirs = Object.keys(BOARDBOT_PACKAGES).map((name) => name.replace('@boardbot/', ''));
  const missing = dirs.filter((dir) => !existsSync(join(root, 'packages', dir, 'package.json')));
  if (missing.length > 0) {
    throw new CreateBoardbotError(
      'BOARDBOT_CREATE_LOCAL_CHECKOUT',
      `${root} is not a boardbot checkout (no packages/${missing[0]}/package.json). Fix: pass --local the ` +
        'directory of the cloned repository.',
    );
  }
  const unbuilt = dirs.filter((dir) => !existsSync(join(root, 'packages', dir, 'dist', 'index.js')));
  if (unbuilt.length > 0) {
    throw new CreateBoardbotError(
      'BOARDBOT_CREATE_LOCAL_CHECKOUT',
      `The checkout's packages are not built (no packages/${unbuilt[0]}/dist). Fix: run \`npm install && npm run build\` ` +
        `in ${root} first; the new project links to the built packages.`,
    );
  }
  return root;
}

/**
 * The new project's package.json: scripts for the CLI, `@boardbot/*` from the registry or as
 * `file:` links into a local checkout, and the third-party packages at the versions boardbot is
 * tested with. better-sqlite3 (a native build) is added only where Node has no `node:sqlite` for the
 * emulator: on Node 24 and 26 a new project installs without compiling anything. A project on a local
 * checkout does not add it either: its `file:` links resolve the emulator's dependencies from the
 * checkout, which has its own (and compiling it again would cost minutes).
 *
 * @param name - the package name
 * @param source - where the boardbot packages come from
 * @param nodeSqlite - whether the Node that will run it has `node:sqlite`. @defaultValue this Node's answer
 */
export function projectPackageJson(
  name: string,
  source: PackageSource,
  nodeSqlite: boolean = hasNodeSqlite(),
): Record<string, unknown> {
  const dependencies: Record<string, string> = { 'class-validator': DEPENDENCY_VERSIONS['class-validator'] };
  const devDependencies: Record<string, string> = {
    '@types/node': DEPENDENCY_VERSIONS['@types/node'],
    typescript: DEPENDENCY_VERSIONS.typescript,
    vitest: DEPENDENCY_VERSIONS.vitest,
  };
  if (!nodeSqlite && source.kind === 'registry')
    devDependencies['better-sqlite3'] = DEPENDENCY_VERSIONS['better-sqlite3'];
  for (const [pkg, kind] of Object.entries(BOARDBOT_PACKAGES)) {
    const version =
      source.kind === 'local'
        ? `file:${join(source.checkout, 'packages', pkg.replace('@boardbot/', ''))}`
        : DEPENDENCY_VERSIONS.boardbot;
    (kind === 'dependencies' ? dependencies : devDependencies)[pkg] = version;
  }
  const sorted = (o: Record<string, string>) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    main: 'dist/main.js',
    engines: { node: '^20.19.0 || ^22.13.0 || >=24.0.0' },
    scripts: {
      dev: 'boardbot dev',
      build: 'tsc -p .',
      start: 'boardbot start',
      test: 'vitest run',
      typecheck: 'tsc -p test',
      commands: 'boardbot commands diff',
    },
    dependencies: sorted(dependencies),
    devDependencies: sorted(devDependencies),
  };
}
