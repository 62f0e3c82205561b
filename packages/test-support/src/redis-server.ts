import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolPath } from '../../../scripts/ensure-test-tools.mjs';
import { vacantPort } from './ports.js';
import { serverProcess } from './server-process.js';

/** A real `redis-server` the test started, on a free loopback port, with its data in a fresh directory. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Stops it with SIGTERM (Redis writes its append-only file and exits) and waits for it to be gone. */
  stop(): Promise<void>;
  /** Kills it with SIGKILL and waits for it to be gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (it loads its append-only file). */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

/** What a test says when the machine has no `redis-server`. */
export const REDIS_SERVER_MISSING =
  'The Redis tests start a real redis-server, and none is installed: install it (Debian/Ubuntu, as root: ' +
  'apt-get install redis-server), or run `node scripts/ensure-test-tools.mjs`, which `npm test` runs first.';

/** How a test's `redis-server` persists; the defaults are what docs/scaling.md recommends. */
export interface RedisServerOptions {
  /** `appendfsync` of the append-only file. @defaultValue `'everysec'` */
  appendfsync?: 'always' | 'everysec';
  /** Whether the append-only file is on (a bench compares it off). @defaultValue `true` */
  appendonly?: boolean;
  /**
   * The directory the server's data directory is made in (a bench puts it on a tmpfs such as
   * `/dev/shm` to tell the disk's share of a latency from the rest). @defaultValue `os.tmpdir()`
   */
  parent?: string;
}

/**
 * Starts `redis-server` with the append-only file on (`appendfsync everysec`, as docs/scaling.md
 * recommends), no RDB snapshots, listening on 127.0.0.1 only.
 *
 * @param options - how it persists, and where
 * @throws when `redis-server` is not installed, with {@link REDIS_SERVER_MISSING}
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = toolPath('redis-server');
  if (binary === undefined) throw new Error(REDIS_SERVER_MISSING);
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), 'boardbot-redis-'));
  const port = await vacantPort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    options.appendonly === false ? 'no' : 'yes',
    '--appendfsync',
    options.appendfsync ?? 'everysec',
    '--save',
    '',
    '--daemonize',
    'no',
    '--loglevel',
    'notice',
  ];
  const server = serverProcess(binary, args, 'Ready to accept connections');
  await server.start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => server.end('SIGTERM'),
    kill: () => server.end('SIGKILL'),
    start: () => server.start(),
    close: async () => {
      await server.end('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
