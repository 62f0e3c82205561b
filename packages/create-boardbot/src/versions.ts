import { ownPackage } from './own-package.js';

/**
 * Versions a new project depends on. The boardbot packages share one version, create-boardbot's
 * own (they are released together); the others are the ones this repository is tested with.
 */
export const DEPENDENCY_VERSIONS = {
  boardbot: `^${ownPackage().version}`,
  'class-validator': '^0.15.1',
  typescript: '~5.9.3',
  vitest: '^4.1.12',
  '@types/node': '^20.19.43',
  /** The emulator's SQLite driver where Node has no `node:sqlite` (Node 20); 13 crashes there. */
  'better-sqlite3': '^12.11.1',
} as const;

/** The boardbot packages a new project uses, and whether each is a runtime or a dev dependency. */
export const BOARDBOT_PACKAGES = {
  '@boardbot/core': 'dependencies',
  '@boardbot/cli': 'devDependencies',
  '@boardbot/testing': 'devDependencies',
} as const;
