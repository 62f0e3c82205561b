import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  type CountingProxy,
  LoggingProcess,
  type RedisServer,
  startCountingProxy,
  startRedisServer,
  type TempDir,
  tempDir,
} from '@boardbot/test-support';
import {
  type InstalledApp,
  installedApps,
  type SeededEmulator,
  startSeededEmulator,
} from '@boardbot/test-support/emulator';
import { Redis } from 'ioredis';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = fileURLToPath(new URL('../../fixtures/host-replica/dist/main.js', import.meta.url));

/** Builds the host fixture and the packages it runs on (a no-op when `tsc -b` already ran). */
export function buildHostReplica(): void {
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-b', 'test/fixtures/host-replica'], {
    cwd: root,
  });
}

/** An app of the platform: its id, its own board (alice is a member), its token and bot user. */
export type PlatformApp = InstalledApp;

/** A replica of the host fixture as a real process. */
export class HostProcess extends LoggingProcess {
  /** Resolves once it joined the host's replicas and started the apps it took. */
  joined(): Promise<unknown> {
    return this.waitFor((l) => l.msg === 'host replica joined');
  }
}

/**
 * One redis-server and one emulator (behind a counting proxy) for a test file, with `count` apps
 * made on the emulator, each installed on a board of its own.
 */
export class HostWorld {
  private constructor(
    readonly redis: RedisServer,
    readonly emulator: SeededEmulator,
    readonly proxy: CountingProxy,
    readonly apps: PlatformApp[],
    readonly client: Redis,
  ) {}

  /** Starts the servers and makes the apps. */
  static async start(count: number): Promise<HostWorld> {
    const redis = await startRedisServer();
    const emulator = await startSeededEmulator({ rateLimit: { requests: 100_000 } });
    const proxy = await startCountingProxy(emulator.apiUrl);
    const apps = await installedApps(emulator, count);
    return new HostWorld(redis, emulator, proxy, apps, new Redis(redis.url));
  }

  /** Stops everything. */
  async close(): Promise<void> {
    this.client.disconnect();
    await this.proxy.close();
    await this.emulator.close();
    await this.redis.close();
  }
}

/** Replicas of one host (its own key prefix) over the first `apps` of a world. */
export class HostReplicas {
  /** Every replica started, dead ones included. */
  readonly all: HostProcess[] = [];
  readonly prefix = `t${randomUUID().slice(0, 8)}`;
  private readonly states: TempDir[] = [];

  /**
   * @param world - the servers and apps
   * @param apps - the apps the host runs
   * @param leaseMs - every lease's time
   */
  constructor(
    private readonly world: HostWorld,
    readonly apps: readonly PlatformApp[],
    private readonly leaseMs: number,
  ) {}

  /** Starts a replica (`h<n>`); await `joined()`. */
  start(): HostProcess {
    const id = `h${this.all.length}`;
    const state = tempDir('boardbot-host-replica-');
    this.states.push(state);
    const replica = new HostProcess({
      script: main,
      name: `host replica ${id}`,
      env: {
        BOARDBOT_API_URL: this.world.proxy.apiUrl,
        BOARDBOT_REDIS_URL: this.world.redis.url,
        BOARDBOT_STATE_DIR: state.dir,
        REPLICA_ID: id,
        REPLICA_KEY_PREFIX: this.prefix,
        REPLICA_LEASE_MS: String(this.leaseMs),
        HOST_APPS: this.apps.map((a) => a.name).join(','),
        LOG_LEVEL: 'info',
        ...Object.fromEntries(this.apps.map((a) => [`APP_TOKEN_${a.name}`, a.token])),
      },
    });
    this.all.push(replica);
    return replica;
  }

  /** Which replica holds each app's lease now ('' when none). */
  async holders(): Promise<Map<string, string>> {
    const keys = this.apps.map((a) => `${this.prefix}:{host:host}:app:${a.name}`);
    const values = await this.world.client.mget(...keys);
    return new Map(this.apps.map((a, i) => [a.name, (values[i] ?? '').split(':')[1] ?? '']));
  }

  /** Whether each app runs on one of `replicas`, reading its gateway there since that replica last took it. */
  async reading(replicas: readonly HostProcess[]): Promise<boolean> {
    const holders = await this.holders();
    return this.apps.every((a) => {
      const holder = replicas.find((r) => r.name.endsWith(` ${holders.get(a.name)}`));
      if (!holder) return false;
      const mine = holder.lines.filter((l) => l.app === a.name);
      const taken = mine.findLastIndex((l) => l.msg === 'app taken: running it on this replica');
      return taken >= 0 && mine.slice(taken).some((l) => l.msg === 'reading the gateway');
    });
  }

  /** Every replica's warnings and errors. */
  report(): string {
    return this.all.map((r) => r.report()).join('\n');
  }

  /** Kills every replica still running, and removes their state directories. */
  async close(): Promise<void> {
    for (const r of this.all) await r.signal('SIGKILL').catch(() => {});
    for (const s of this.states) s.remove();
  }
}
