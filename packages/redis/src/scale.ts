import type { Clock, CommandSyncPlan, ReplicaStatus, ScaleAdapter, SourceHost } from '@boardbot/core';
import type { Logger } from '@boardbot/protocol';
import type { Redis } from 'ioredis';
import { CommandSync } from './commands/command-sync.js';
import { type Connected, openReplica, watchErrors } from './connection.js';
import { BlockingReads } from './consume/blocking-reads.js';
import { Consumer } from './consume/consumer.js';
import type { SharedReads } from './consume/shared-reads.js';
import { ensureGroup } from './consume/streams.js';
import { trimDeadLetters } from './dead-letters/retention.js';
import { RedisNotConnectedError } from './errors.js';
import { Reader } from './feed/reader.js';
import { type BucketKeys, bucketKeys, Keys } from './keys.js';
import { Lease } from './lease/lease.js';
import { RedisCooldowns } from './limits/cooldowns.js';
import { RedisRateLimit } from './limits/rate-limit.js';
import { type RedisScaleOptions, type ResolvedRedisOptions, redactRedisUrl, resolveRedisOptions } from './options.js';
import { holderOf, planBalance } from './partitions/balance.js';
import { HEARTBEAT } from './scripts/feed-scripts.js';
import { RedisSessionStore } from './sessions/redis-session-store.js';

/** What a started replica runs. */
interface Running {
  /** Its own blocking connection; none when the host's shared read serves it. */
  blocking: Redis | undefined;
  reader: Reader;
  consumer: Consumer;
}

/**
 * What the host of many apps shares with each app's replica (`redisHost()`): its connection, its
 * replica id, its one blocking read, and its one heartbeat, which beats every app's replica.
 * @internal made by `redisHost()`
 */
export interface SharedReplica {
  /** The host's command connection. */
  readonly client: Redis;
  /** The host replica's id: every app's replica is named by it. */
  readonly replicaId: string;
  /** The one blocking read of the host's apps. */
  readonly reads: SharedReads;
  /** The host's heartbeat beats `scale` from now on ({@link RedisScale.tick}). */
  join(scale: RedisScale): void;
  /** The host's heartbeat no longer beats `scale`. */
  leave(scale: RedisScale): void;
}

/**
 * One replica of a bot on Redis Streams, the `ScaleAdapter` that `redis()` returns. Every third of
 * `leaseMs` it beats: renews its membership and leases, rebalances the partitions, tries the reader
 * lease, keeps its command set registered, claims entries left pending too long, and trims streams.
 */
export class RedisScale implements ScaleAdapter {
  readonly description: string;
  readonly rateLimit: RedisRateLimit;
  readonly cooldowns: RedisCooldowns;
  /** The bot's sessions and schedule claims, unless it was given a `sessions` store of its own. */
  readonly sessions: RedisSessionStore;
  private readonly options: ResolvedRedisOptions;
  private c: Connected | undefined;
  private connection: { client: Redis; replicaId: string; log: Logger; bucket: BucketKeys; clock: Clock } | undefined;
  private commands: CommandSync | undefined;
  private run: Running | undefined;
  private partitions = 0;
  private apiUrl = '';
  private readonly leases = new Map<number, Lease>();
  private timer: unknown;
  private beating: Promise<void> | undefined;
  private paused = false;
  private closed = false;
  private beatFailures = 0;
  private beats = 0;
  private readonly works = new Map<string, Promise<unknown>>();

  /**
   * @param options - see {@link RedisScaleOptions}
   * @param shared - the host's connection, read and heartbeat, for an app of a host (`redisHost()`);
   * without it the replica has its own
   */
  constructor(
    options: RedisScaleOptions = {},
    private readonly shared?: SharedReplica,
  ) {
    this.options = resolveRedisOptions(options);
    this.description = `redis ${redactRedisUrl(this.options.url)}`;
    this.rateLimit = new RedisRateLimit(() => {
      const c = this.connection;
      return c && { client: c.client, keys: c.bucket, replicaId: c.replicaId };
    });
    this.cooldowns = new RedisCooldowns(() => this.c);
    this.sessions = new RedisSessionStore({
      keyPrefix: this.options.keyPrefix,
      client: () => {
        if (!this.connection) throw new RedisNotConnectedError('sessions');
        return this.connection.client;
      },
    });
  }

  async connect(target: { apiUrl: string; credential: string; log: Logger; clock: Clock }): Promise<void> {
    this.apiUrl = target.apiUrl;
    const bucket = bucketKeys(this.options.keyPrefix, target.credential);
    const shared = this.shared;
    if (shared) {
      const log = (this.options.logger ?? target.log).child({ replica: shared.replicaId });
      this.connection = { client: shared.client, replicaId: shared.replicaId, log, bucket, clock: target.clock };
      return;
    }
    const { client, replicaId, log } = await openReplica(this.options, target.log, false);
    this.connection = { client, replicaId, log, bucket, clock: target.clock };
  }

  async joinApp(appId: string): Promise<void> {
    const connection = this.connection;
    if (!connection) throw new RedisNotConnectedError('joinApp');
    const { client, replicaId, log, clock } = connection;
    const keys = new Keys(this.options.keyPrefix, appId, this.apiUrl);
    this.c = { client, keys, replicaId, log, clock };
    await client.hsetnx(keys.config, 'partitions', this.options.partitions);
    this.partitions = Number(await client.hget(keys.config, 'partitions'));
    if (this.partitions !== this.options.partitions) {
      log.warn(
        { partitions: this.partitions, configured: this.options.partitions },
        'this bot was first started with another partition count: using the stored one',
      );
    }
    this.commands = new CommandSync(this.c, this.options.leaseMs);
  }

  syncCommands(
    setHash: string,
    sync: () => Promise<CommandSyncPlan | undefined>,
  ): Promise<CommandSyncPlan | undefined> {
    if (!this.commands) throw new RedisNotConnectedError('syncCommands');
    return this.commands.syncCommands(setHash, sync);
  }

  async start(host: SourceHost): Promise<void> {
    const c = this.c;
    if (!c) throw new RedisNotConnectedError('start');
    const blocking = this.shared ? undefined : c.client.duplicate();
    if (blocking) {
      watchErrors(blocking, c.log);
      await blocking.connect();
    }
    const waits = this.shared?.reads.waits() ?? new BlockingReads(blocking as Redis, c.client, c.clock);
    for (let p = 0; p < this.partitions; p++) await ensureGroup(c.client, c.keys.partition(p));
    const o = this.options;
    const readerLease = new Lease(c.client, c.keys.reader, c.keys.fence, c.replicaId, o.leaseMs);
    const consumer = new Consumer(c, waits, host, o, () => this.run?.reader.leading === true);
    this.run = {
      blocking,
      reader: new Reader(c, readerLease, host, this.partitions, o.maxBacklog, consumer),
      consumer,
    };
    consumer.start();
    await this.beat();
    // A first start waits for the gateway, so that nothing posted right after it is missed.
    await this.run.reader.opened();
    await Promise.all(this.works.values());
    this.schedule();
    c.log.info(
      { partitions: consumer.held.length, of: this.partitions, reader: this.run.reader.leading },
      'replica joined',
    );
  }

  async status(): Promise<ReplicaStatus> {
    const c = this.c;
    const role = this.run?.reader.leading ? 'reader' : 'consumer';
    // Consuming: joined, not stopping, and its last heartbeat reached Redis.
    const consuming = this.run !== undefined && !this.paused && this.beatFailures === 0;
    if (!c) return { role, consuming: false, pending: 0, deadLettered: 0 };
    try {
      const [pending, deadLettered] = await Promise.all([c.client.zcard(c.keys.inflight), c.client.xlen(c.keys.dead)]);
      return { role, consuming, pending, deadLettered };
    } catch {
      return { role, consuming: false, pending: 0, deadLettered: 0 };
    }
  }

  async pause(): Promise<void> {
    this.paused = true;
    await this.run?.reader.stop();
    await this.run?.consumer.pause();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.paused = true;
    this.connection?.clock.clearTimeout(this.timer);
    this.shared?.leave(this);
    await this.beating;
    await Promise.all(this.works.values());
    await this.pause();
    const c = this.c;
    if (c) {
      // Handed over at once rather than when they expire: the next owner claims what is left pending.
      await Promise.all([...this.leases.values()].map((lease) => lease.release().catch(() => {})));
      await c.client.zrem(c.keys.members, c.replicaId).catch(() => {});
      c.log.info('replica left');
    }
    this.run?.blocking?.disconnect();
    // The host's connection is the host's to close.
    const client = this.shared ? undefined : this.connection?.client;
    await client?.quit().catch(() => client.disconnect());
  }

  /**
   * One heartbeat, unless one runs: what the replica's own timer calls, or the host's heartbeat for
   * each of its apps.
   * @internal called by `redisHost()`'s heartbeat
   */
  tick(): Promise<void> {
    this.beating ??= this.beat().finally(() => {
      this.beating = undefined;
    });
    return this.beating;
  }

  private schedule(): void {
    if (this.closed || !this.connection) return;
    if (this.shared) {
      this.shared.join(this);
      return;
    }
    this.timer = this.connection.clock.setTimeout(
      () => void this.tick().finally(() => this.schedule()),
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    );
  }

  /**
   * One heartbeat: the leases first, quickly (membership, partitions, the reader's); the slower work
   * (taking a partition over, opening the gateway, claiming, trimming, the command sync) runs beside
   * the heartbeats, one of each at a time, so that it never delays a renewal past a lease's expiry.
   */
  private async beat(): Promise<void> {
    const c = this.c;
    const run = this.run;
    if (!c || !run) return;
    try {
      const leaseKeys = Array.from({ length: this.partitions }, (_, p) => c.keys.partitionLease(p));
      const held = Array.from({ length: this.partitions }, (_, p) => this.leases.get(p)?.value ?? '');
      // Leases renewed now last `leaseMs` from no earlier than this moment.
      const until = c.clock.now() + this.options.leaseMs;
      const [members, owners, renewed] = (await HEARTBEAT.run(
        c.client,
        [c.keys.members, ...leaseKeys],
        [this.paused ? '' : c.replicaId, this.options.leaseMs, ...held],
      )) as [string[], string[], number[]];
      this.noteRenewals(run.consumer, held, renewed, until);
      if (!this.paused) {
        await run.reader.tick();
        await this.balance(run.consumer, members, owners.map(holderOf));
        // Claims of stuck entries and trims are cheap but not urgent: every fifth heartbeat.
        if (this.beats++ % 5 === 0) {
          this.beside('sweep', () => run.consumer.sweep());
          // Old dead letters go even when no new one comes (a write trims them too).
          this.beside('dead letters', () => trimDeadLetters(c.client, c.keys.dead, this.options.deadLetterRetentionMs));
        }
      }
      this.beside('commands', () => this.commands?.tick());
      this.beatFailures = 0;
    } catch (error) {
      if (this.beatFailures++ % 20 === 0) c.log.warn({ err: error }, 'replica heartbeat failed (Redis unreachable?)');
    }
  }

  /** Runs `work` beside the heartbeats unless the previous `name` work still runs. */
  private beside(name: string, work: () => Promise<unknown> | undefined): void {
    if (this.works.has(name)) return;
    const running = Promise.resolve()
      .then(work)
      .catch((error: unknown) => this.c?.log.warn({ err: error, work: name }, 'replica housekeeping failed'))
      .finally(() => this.works.delete(name));
    this.works.set(name, running);
  }

  /** Extends the deadlines of the partitions renewed (to `until`), forgets those the heartbeat found lost. */
  private noteRenewals(consumer: Consumer, held: readonly string[], renewed: readonly number[], until: number): void {
    held.forEach((value, p) => {
      if (value !== '' && renewed[p] === 1) consumer.extend(p, until);
      if (value === '' || renewed[p] === 1 || this.leases.get(p)?.value !== value) return;
      this.leases.get(p)?.forget();
      this.leases.delete(p);
      consumer.drop(p);
      this.c?.log.warn({ partition: p }, 'partition lease lost: another replica takes the partition over');
    });
  }

  private async balance(consumer: Consumer, members: string[], owners: string[]): Promise<void> {
    const c = this.c as Connected;
    if (!members.includes(c.replicaId)) return;
    const plan = planBalance({
      partitions: this.partitions,
      members,
      owners,
      active: consumer.active,
      held: this.leases.size,
    });
    for (const p of plan.release) {
      const lease = this.leases.get(p);
      void consumer.drain(p).then(async () => {
        // A lease lost and taken again during the drain is the new one's: keep it.
        if (this.leases.get(p) !== lease) return;
        this.leases.delete(p);
        await lease?.release().catch(() => {});
        c.log.info({ partition: p }, 'partition handed over');
      });
    }
    await Promise.all(
      plan.acquire.map(async (p) => {
        const lease = new Lease(c.client, c.keys.partitionLease(p), c.keys.fence, c.replicaId, this.options.leaseMs);
        const until = c.clock.now() + this.options.leaseMs;
        if (!(await lease.acquire())) return;
        this.leases.set(p, lease);
        // Named by the lease value: a takeover of the lease taken again while the one of the lost
        // lease still runs is no duplicate of it (skipped, it left the partition renewed, unread).
        this.beside(`adopt ${lease.value}`, () =>
          consumer.adopt(p, lease.value as string, until).catch(async (error: unknown) => {
            // Lost meanwhile: the takeover of whatever lease this replica holds now is not this one's.
            if (this.leases.get(p) !== lease) return;
            consumer.drop(p);
            this.leases.delete(p);
            await lease.release().catch(() => {});
            c.log.warn(
              { err: error, partition: p },
              'could not take the partition over: leaving it to the next heartbeat',
            );
          }),
        );
      }),
    );
  }
}
