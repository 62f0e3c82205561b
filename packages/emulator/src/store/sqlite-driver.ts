import { createRequire } from 'node:module';
import { EmulatorStorageError } from '../errors.js';
import { NodeSqliteDb, type NodeSqliteModule } from './node-sqlite.js';
import type { Db } from './sqlite-db.js';

export type { Db, RunResult, Statement } from './sqlite-db.js';

/** The SQLite bindings the emulator can run on. */
export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

/** A loaded SQLite binding. */
export interface SqliteDriver {
  /** Which one. */
  readonly name: SqliteDriverName;
  /** Opens a connection to `path` (a file, or `':memory:'`). */
  open(path: string): Db;
  /** How another thread opens its own connection: `new (require(module)[exportName] ?? require(module))(path)`. */
  readonly worker: { module: string; exportName?: string };
}

/** The environment variable that picks a driver instead of the default order. */
export const SQLITE_DRIVER_ENV = 'BOARDBOT_SQLITE_DRIVER';

const require = createRequire(import.meta.url);
const USE_NODE_SQLITE = 'run on Node 26, the current LTS (or 22.16+), whose built-in node:sqlite needs no install';
const INSTALL_BETTER_SQLITE3 = `install better-sqlite3 in your project with \`npm install better-sqlite3@12\`, or ${USE_NODE_SQLITE}`;

/**
 * Node's own `node:sqlite`, when this Node has it without a flag and with what the adapter needs
 * (`isTransaction`, `setReturnArrays`: Node 22.16+, 24, 26).
 */
function loadNodeSqlite(): SqliteDriver | undefined {
  const mod = process.getBuiltinModule?.('node:sqlite') as NodeSqliteModule | undefined;
  if (!mod) return undefined;
  const probe = new mod.DatabaseSync(':memory:');
  const complete =
    typeof probe.isTransaction === 'boolean' && typeof probe.prepare('SELECT 1').setReturnArrays === 'function';
  probe.close();
  if (!complete) return undefined;
  return {
    name: 'node:sqlite',
    open: (path) => new NodeSqliteDb(new mod.DatabaseSync(path)),
    worker: { module: 'node:sqlite', exportName: 'DatabaseSync' },
  };
}

/**
 * Why this better-sqlite3 cannot run on this Node, with the fix, or `undefined` when it can. Version
 * 13 (Node-API) crashes the process on load on Node 20; 12 and older abort it on Node 24.19 and later
 * (`Statement::~Statement`, a break between their `node::ObjectWrap` and that Node).
 *
 * @param version - better-sqlite3's version.
 * @param nodeVersion - Node's version (`process.versions.node`).
 */
export function betterSqlite3Refusal(version: string, nodeVersion: string): string | undefined {
  const major = Number(version.split('.')[0]);
  const [nodeMajor = 0, nodeMinor = 0] = nodeVersion.split('.').map(Number);
  if (major >= 13 && nodeMajor < 22) {
    return `better-sqlite3 ${version} crashes on Node ${nodeVersion}: install version 12 with \`npm install better-sqlite3@12\``;
  }
  if (major < 13 && (nodeMajor > 24 || (nodeMajor === 24 && nodeMinor >= 19))) {
    return `better-sqlite3 ${version} aborts the process on Node ${nodeVersion}: use node:sqlite (unset ${SQLITE_DRIVER_ENV}) or \`npm install better-sqlite3@13\``;
  }
  return undefined;
}

/**
 * better-sqlite3 where it is installed (an optional peer dependency, for Node 20 and the first
 * releases of 22), unless {@link betterSqlite3Refusal} refuses it.
 */
function loadBetterSqlite3(): SqliteDriver | undefined {
  let entry: string;
  try {
    entry = require.resolve('better-sqlite3');
  } catch {
    return undefined;
  }
  const { version } = require('better-sqlite3/package.json') as { version: string };
  const refusal = betterSqlite3Refusal(version, process.versions.node);
  if (refusal) throw new EmulatorStorageError(refusal);
  const Database = require(entry) as new (path: string) => Db;
  try {
    new Database(':memory:').close();
  } catch (cause) {
    throw new EmulatorStorageError(
      `better-sqlite3 ${version} is installed but cannot load on Node ${process.versions.node}: rebuild it for this Node with \`npm rebuild better-sqlite3\``,
      { cause },
    );
  }
  return { name: 'better-sqlite3', open: (path) => new Database(path), worker: { module: entry } };
}

/** Loads one driver: `undefined` when it is not there, a throw when it is there but cannot run. */
export type SqliteDriverLoader = () => SqliteDriver | undefined;

/** The drivers, in the order they are tried. */
export const SQLITE_DRIVERS: Readonly<Record<SqliteDriverName, SqliteDriverLoader>> = {
  'node:sqlite': loadNodeSqlite,
  'better-sqlite3': loadBetterSqlite3,
};

/**
 * Picks a driver: `forced` if given, else the first of `loaders` that loads (`node:sqlite` where this
 * Node has it complete: nothing to install or compile; else better-sqlite3 if it is installed).
 *
 * @param forced - A driver name (the value of `BOARDBOT_SQLITE_DRIVER`); empty or `undefined` for the default order.
 * @param loaders - The drivers to try, in order.
 * @throws EmulatorStorageError naming what to install when no driver can load.
 */
export function chooseSqliteDriver(
  forced: string | undefined,
  loaders: Readonly<Record<SqliteDriverName, SqliteDriverLoader>> = SQLITE_DRIVERS,
): SqliteDriver {
  if (forced !== undefined && forced !== '' && forced !== 'node:sqlite' && forced !== 'better-sqlite3') {
    throw new EmulatorStorageError(`${SQLITE_DRIVER_ENV} must be node:sqlite or better-sqlite3, got ${forced}`);
  }
  const driver = forced
    ? loaders[forced]()
    : Object.values(loaders).reduce<SqliteDriver | undefined>((found, load) => found ?? load(), undefined);
  if (driver) return driver;
  const missing =
    forced === 'node:sqlite'
      ? `Node ${process.versions.node} has no complete node:sqlite (${SQLITE_DRIVER_ENV}=node:sqlite): ${USE_NODE_SQLITE}`
      : forced === 'better-sqlite3'
        ? `better-sqlite3 is not installed (${SQLITE_DRIVER_ENV}=better-sqlite3): ${INSTALL_BETTER_SQLITE3}`
        : `Node ${process.versions.node} has no complete node:sqlite and better-sqlite3 is not installed: ${INSTALL_BETTER_SQLITE3}`;
  throw new EmulatorStorageError(`The emulator needs a SQLite driver, and ${missing}`);
}

let chosen: SqliteDriver | undefined;

/** The driver of this process, chosen once by {@link chooseSqliteDriver} from `BOARDBOT_SQLITE_DRIVER`. */
export function sqliteDriver(): SqliteDriver {
  chosen ??= chooseSqliteDriver(process.env[SQLITE_DRIVER_ENV]);
  return chosen;
}
