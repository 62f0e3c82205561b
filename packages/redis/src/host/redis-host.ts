import type { AppPlacement, Clock, HostScale, ScaleAdapter } from '@boardbot/core';
import type { Logger } from '@boardbot/protocol';
import type { Redis } from 'ioredis';
import { openReplica, sleep } from '../connection.js';
import { SharedReads } from '../consume/shared-reads.js';
import { RedisNotConnectedError, RedisOptionError } from '../errors.js';
import { type RedisScaleOptions, redactRedisUrl, resolveRedisOptions } from '../options.js';
import { RedisScale, type SharedReplica } from '../scale.js';
import { AppLeases } from './app-leases.js';
import { HostKeys } from './host-keys.js';

/** Options of `redisHost()`: those of `redis()`, for every app, and the host's name. */
export interface RedisHostOptions extends RedisScaleOptions {
  /**
   * The host's name in Redis: the replicas of one host share it (and spread its apps); two hosts
   * on one Redis need two names. Letters, digits, `_`, `.` and `-`, at most 64.
   * @defaultValue `'host'`
   */
  hostName?: string | undefined;
}

/** Defaults of {@link RedisHostOptions} beyond those of `redis()`. */
export const DEFAULT_REDIS_HOST_OPTIONS = { hostName: 'host' } as const;

/** What a connected host holds. */
interface Connection extends SharedReplica {
  blocking: Redis;
  log: Logger;
  clock: Clock;
  keys: HostKeys;
}

/**
 * The replica of a host of apps on Redis (`redisHost()`): one connection for commands, one for the
 * blocking read that every app's consumer shares, and one heartbeat that renews the replica's app
 * leases and beats each app's replica, whatever the number of apps. Each app runs here while this
 * replica holds its lease (one lease per app, as a partition has), as a replica of its own bot,
 * whose Redis keys are those of the app's bot alone.
 */
export class RedisHostScale implements HostScale {
  readonly description: string;
  private readonly options: RedisScaleOptions;
  private readonly resolved: ReturnType<typeof resolveRedisOptions>;
  private readonly hostName: string;
  private readonly scales = new Set<RedisScale>();
  private c: Connection | undefined;
  private leases: AppLeases | undefined;
  private timer: unknown;
  private beating: Promise<void> | undefined;
  private closed = false;
  private beatFailures = 0;

  /** @param options - see {@link RedisHostOptions} */
  constructor(options: RedisHostOptions = {}) {
    const { hostName = DEFAULT_REDIS_HOST_OPTIONS.hostName, ...rest } = options;
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(hostName))
      throw new RedisOptionError('hostName', 'must be 1 to 64 of A-Z a-z 0-9 _ . -');
    this.resolved = resolveRedisOptions(rest);
    this.options = rest;
    this.hostName = hostName;
    this.description = `redis ${redactRedisUrl(this.resolved.url)} (host ${hostName})`;
  }

  /** The apps this replica runs now. */
  get held(): string[] {
    return this.leases?.held ?? [];
  }

  async connect(target: { log: Logger; clock: Clock }): Promise<void> {
    const opened = await openReplica(this.resolved, target.log, true);
    const blocking = opened.blocking as Redis;
    this.c = {
      ...opened,
      blocking,
      clock: target.clock,
      keys: new HostKeys(this.resolved.keyPrefix, this.hostName),
      reads: new SharedReads(blocking, opened.client, target.clock),
      join: (scale) => this.scales.add(scale),
      leave: (scale) => this.scales.delete(scale),
    };
  }

  adapter(_app: string): ScaleAdapter {
    const c = this.c;
    if (!c) throw new RedisNotConnectedError('host.adapter');
    // The app's own logger (given at its start) carries its `app` field: the host's is not passed on.
    const { logger: _, ...options } = this.options;
    return new RedisScale({ ...options, replicaId: c.replicaId }, c);
  }

  async start(placement: AppPlacement): Promise<void> {
    const c = this.c;
    if (!c) throw new RedisNotConnectedError('host.start');
    const { leaseMs } = this.resolved;
    this.leases = new AppLeases({
      client: c.client,
      keys: c.keys,
      replicaId: c.replicaId,
      leaseMs,
      log: c.log,
      placement,
    });
    // The first heartbeat only joins: replicas started together see each other before any takes its
    // share, rather than the first taking every app and handing most of them over at once.
    await this.leases.beat(true, true);
    await sleep(c.clock, Math.max(50, Math.floor(leaseMs / 3)));
    await this.beat();
    // The apps taken at the second heartbeat run (or failed) before the start ends.
    await this.leases.settled();
    this.schedule();
    c.log.info({ apps: this.held.length, of: placement.apps().length }, 'host replica joined');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.c?.clock.clearTimeout(this.timer);
    await this.beating;
    await this.leases?.releaseAll();
    const c = this.c;
    if (!c) return;
    c.log.info('host replica left');
    c.blocking.disconnect();
    await c.client.quit().catch(() => c.client.disconnect());
  }

  private schedule(): void {
    const c = this.c;
    if (this.closed || !c) return;
    this.timer = c.clock.setTimeout(
      () => {
        this.beating = this.beat().finally(() => {
          this.beating = undefined;
          this.schedule();
        });
      },
      Math.max(50, Math.floor(this.resolved.leaseMs / 3)),
    );
  }

  /**
   * The one heartbeat of the replica: its app leases, and each app's replica (membership, partition
   * leases, reader lease, housekeeping). Their commands go out together on the one connection
   * (auto-pipelined), one write whatever the number of apps.
   */
  private async beat(): Promise<void> {
    const c = this.c;
    if (!c) return;
    // Each app's beat runs beside (one at a time per app): a slow one never holds the app leases' renewal.
    for (const scale of this.scales) void scale.tick();
    try {
      await this.leases?.beat(this.closed);
      this.beatFailures = 0;
    } catch (error) {
      if (this.beatFailures++ % 20 === 0) c.log.warn({ err: error }, 'host heartbeat failed (Redis unreachable?)');
    }
  }
}
