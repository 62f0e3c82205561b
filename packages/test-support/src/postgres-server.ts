import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { toolPath } from '../../../scripts/ensure-test-tools.mjs';
import { vacantPort } from './ports.js';
import { serverProcess } from './server-process.js';

/** A real PostgreSQL server the test started, on a free loopback port, with its data in a fresh directory. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trusted: no password on loopback). */
  url: string;
  port: number;
  /** Stops it (a fast shutdown: sessions are cut, what was committed is kept) and waits for it to be gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

/** What a test says when the machine has no PostgreSQL. */
export const POSTGRES_SERVER_MISSING =
  'The PostgreSQL tests start a real PostgreSQL server, and none is installed: install it (Debian/Ubuntu, as ' +
  'root: apt-get install postgresql), or run `node scripts/ensure-test-tools.mjs`, which `npm test` runs first.';

/** Where a test's server keeps its data. */
export interface PostgresServerOptions {
  /** The directory the server's directory is made in (readable by the `postgres` user when run as root). @defaultValue `os.tmpdir()` */
  parent?: string;
}

/**
 * The user the server runs as: `initdb` and `postgres` refuse to run as root, which tests and CI are,
 * so as root they run as the `postgres` user Debian's package creates; otherwise as this user.
 */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(`${POSTGRES_SERVER_MISSING} (running as root, it needs the postgres user the package creates)`);
  }
}

/**
 * Runs `initdb` for a new cluster in `data`: trusted local connections, UTF-8, the C locale (the
 * machine's own locales do not matter), no sync of the new files.
 */
function initCluster(bin: string, data: string, user: { uid: number; gid: number } | undefined): void {
  const args = ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'];
  execFileSync(join(bin, 'initdb'), args, { stdio: 'pipe', ...user, env: { ...process.env, LC_ALL: 'C' } });
}

/**
 * Starts a PostgreSQL server of its own for a test file: a fresh cluster in a temporary directory
 * (owned by the `postgres` user when the tests run as root), listening on 127.0.0.1 at a free port,
 * with its Unix socket in that directory and PostgreSQL's default settings.
 *
 * @param options - where
 * @throws when PostgreSQL is not installed, with {@link POSTGRES_SERVER_MISSING}
 */
export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const found = toolPath('postgres');
  if (found === undefined) throw new Error(POSTGRES_SERVER_MISSING);
  const bin = dirname(realpathSync(found));
  const user = serverUser();
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), 'boardbot-postgres-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  initCluster(bin, data, user);
  const port = await vacantPort();
  const args = ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-c', 'max_connections=200'];
  const server = serverProcess(join(bin, 'postgres'), args, 'database system is ready to accept connections', user);
  // SIGINT is PostgreSQL's fast shutdown: it ends the sessions and checkpoints, without waiting for clients.
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => server.end('SIGINT'),
    start: () => server.start(),
    close: async () => {
      await server.end('SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
