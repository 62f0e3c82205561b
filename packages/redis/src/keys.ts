import { createHash } from 'node:crypto';

/**
 * The names of one bot's keys. Every key of a bot carries the same hash tag (`{<app id>:<platform>}`),
 * so that the scripts, which touch several keys at once, keep working on a Redis Cluster too (all the
 * bot's keys live in one slot), and two bots, or one app on two platforms, never share a key.
 */
export class Keys {
  /** The common part, e.g. `boardbot:{0190…:3f2a9c1b04de}`. */
  readonly base: string;

  /**
   * @param prefix - the `keyPrefix` option
   * @param appId - the app the bot runs as
   * @param apiUrl - the platform's API URL
   */
  constructor(prefix: string, appId: string, apiUrl: string) {
    const platform = createHash('sha256').update(apiUrl).digest('hex').slice(0, 12);
    this.base = `${prefix}:{${appId}:${platform}}`;
  }

  /** Counter of fencing tokens, for every lease of the bot. */
  get fence(): string {
    return `${this.base}:fence`;
  }
  /** The reader's lease: who reads the gateway. */
  get reader(): string {
    return `${this.base}:reader`;
  }
  /** Live replicas: member = replica id, score = when its membership expires (Redis time, ms). */
  get members(): string {
    return `${this.base}:members`;
  }
  /** Settings fixed at the first start (`partitions`). */
  get config(): string {
    return `${this.base}:config`;
  }
  /** The last appended entry, as a sort key. */
  get appended(): string {
    return `${this.base}:appended`;
  }
  /** Appended entries not acknowledged yet, as sort keys (all scores 0: ordered by the key). */
  get inflight(): string {
    return `${this.base}:inflight`;
  }
  /** Per board, the highest `seq` of a `message.create` acknowledged. */
  get boards(): string {
    return `${this.base}:boards`;
  }
  /** `acked_at`: when an event was last acknowledged (Redis time, ms). */
  get meta(): string {
    return `${this.base}:meta`;
  }
  /** Per entry in flight, how many times its handlers were started. */
  get attempts(): string {
    return `${this.base}:attempts`;
  }
  /** Events whose handlers kept failing, with why. */
  get dead(): string {
    return `${this.base}:dead`;
  }
  /** The stream of partition `n`. */
  partition(n: number): string {
    return `${this.base}:p:${n}`;
  }
  /** The lease of partition `n`: which replica consumes it. */
  partitionLease(n: number): string {
    return `${this.base}:p:${n}:lease`;
  }
  /** A cooldown window (handler and scope). */
  cooldown(key: string): string {
    return `${this.base}:cooldown:${key}`;
  }
  /** Command sets of the running deploys: hash → when it was first seen. */
  get commandSets(): string {
    return `${this.base}:commands:sets`;
  }
  /** Command sets by when a live replica last ran them. */
  get commandSetsSeen(): string {
    return `${this.base}:commands:seen`;
  }
  /** The hash of the command set last registered. */
  get commandsSynced(): string {
    return `${this.base}:commands:synced`;
  }
  /** The lease of whoever is syncing the commands. */
  get commandsLock(): string {
    return `${this.base}:commands:lock`;
  }
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
