import { createHash } from 'node:crypto';

/**
 * The names of one bot's keys. Every key of a bot carries the same hash tag (`{<app id>:<platform>}`),
 * so that the scripts, which touch several keys at once, keep working on a Redis Cluster too (all the
 * bot's keys live in one slot), and two bots, or one app on two platforms, never share a key.
 */
export class Keys {
  /** The common part, e.g. `boardbot:{0190…:3f2a9c1b04de}`. */
  readonly base: string;
  // Every name is built once: the scripts on an event's way name the same keys for every event.
  private readonly partitions: string[] = [];
  private readonly partitionLeases: string[] = [];

  /**
   * @param prefix - the `keyPrefix` option
   * @param appId - the app the bot runs as
   * @param apiUrl - the platform's API URL
   */
  constructor(prefix: string, appId: string, apiUrl: string) {
    const platform = createHash('sha256').update(apiUrl).digest('hex').slice(0, 12);
    this.base = `${prefix}:{${appId}:${platform}}`;
    this.fence = `${this.base}:fence`;
    this.reader = `${this.base}:reader`;
    this.members = `${this.base}:members`;
    this.config = `${this.base}:config`;
    this.appended = `${this.base}:appended`;
    this.inflight = `${this.base}:inflight`;
    this.boards = `${this.base}:boards`;
    this.meta = `${this.base}:meta`;
    this.attempts = `${this.base}:attempts`;
    this.dead = `${this.base}:dead`;
    this.commandSets = `${this.base}:commands:sets`;
    this.commandSetsSeen = `${this.base}:commands:seen`;
    this.commandsSynced = `${this.base}:commands:synced`;
    this.commandsLock = `${this.base}:commands:lock`;
  }

  /** Counter of fencing tokens, for every lease of the bot. */
  readonly fence: string;
  /** The reader's lease: who reads the gateway. */
  readonly reader: string;
  /** Live replicas: member = replica id, score = when its membership expires (Redis time, ms). */
  readonly members: string;
  /** Settings fixed at the first start (`partitions`). */
  readonly config: string;
  /** The last appended entry, as a sort key. */
  readonly appended: string;
  /** Appended entries not acknowledged yet, as sort keys (all scores 0: ordered by the key). */
  readonly inflight: string;
  /** Per board, the highest `seq` of a `message.create` acknowledged. */
  readonly boards: string;
  /** `acked_at`: when an event was last acknowledged (Redis time, ms). */
  readonly meta: string;
  /** Per entry in flight, how many times its handlers were started. */
  readonly attempts: string;
  /** Events whose handlers kept failing, with why. */
  readonly dead: string;
  /** The stream of partition `n`. */
  partition(n: number): string {
    const key = this.partitions[n] ?? `${this.base}:p:${n}`;
    this.partitions[n] = key;
    return key;
  }
  /** The lease of partition `n`: which replica consumes it. */
  partitionLease(n: number): string {
    const key = this.partitionLeases[n] ?? `${this.base}:p:${n}:lease`;
    this.partitionLeases[n] = key;
    return key;
  }
  /** A cooldown window (handler and scope). */
  cooldown(key: string): string {
    return `${this.base}:cooldown:${key}`;
  }
  /** Command sets of the running deploys: hash → when it was first seen. */
  readonly commandSets: string;
  /** Command sets by when a live replica last ran them. */
  readonly commandSetsSeen: string;
  /** The hash of the command set last registered. */
  readonly commandsSynced: string;
  /** The lease of whoever is syncing the commands. */
  readonly commandsLock: string;
}

/** The keys of an app token's rate-limit window (the token is known only by a hash of it and the API URL). */
export interface BucketKeys {
  /** The window. */
  bucket: string;
  /** Slots of the window reserved and not settled: member = slot id, score = when it lapses. */
  slots: string;
}

/**
 * The keys of an app token's rate-limit window. Named by the credential, not the app: a replica
 * reserves its first request's slot (`GET /app`) before it knows the app.
 *
 * @param prefix - the `keyPrefix` option
 * @param credential - the hash naming the token
 */
export function bucketKeys(prefix: string, credential: string): BucketKeys {
  const base = `${prefix}:{bucket:${credential}}`;
  return { bucket: base, slots: `${base}:slots` };
}

/** The consumer group every replica reads the partitions through. */
export const GROUP = 'boardbot';
