import type { SessionRecord, SessionStore, SessionValue } from '@boardbot/core';
import type { Redis } from 'ioredis';
import { WRITE_SESSION } from '../scripts/session-scripts.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where a {@link RedisSessionStore} finds its connection and names its keys. */
export interface RedisSessionStoreOptions {
  /** The connection (the replica's own, once it connected); called at each read and write. */
  client: () => Redis;
  /** The first part of every key, e.g. `boardbot`. */
  keyPrefix: string;
}

/**
 * Sessions (and schedule claims) in Redis, shared by every replica of a bot: each session is a hash
 * of its version and its value, and a write is one Lua script that checks the version and raises it,
 * so two replicas that change one session never lose an update. The session keys already name the
 * app, so two bots on one Redis never share one.
 *
 * Whether a session has expired is decided when it is read, by its `expiresAt` on the bot's clock;
 * Redis only reclaims the memory, a day after that (so a clock a little ahead of another's never
 * drops a session early). A deleted session keeps its raised version for a week, then goes.
 *
 * The value is stored as JSON exactly as given, with the keys of the updates it applied and the
 * values the latest of them wrote (core bounds both), so an event replayed on any replica neither
 * applies its update again nor resolves with another value than its first run; a record written
 * before those values were kept reads as it is.
 */
export class RedisSessionStore implements SessionStore {
  readonly description: string;

  /** @param options - the connection and the key prefix */
  constructor(private readonly options: RedisSessionStoreOptions) {
    this.description = `redis (${options.keyPrefix}:session:*)`;
  }

  async read(key: string): Promise<SessionRecord | undefined> {
    const [version, value] = await this.options.client().hmget(this.keyOf(key), 'v', 'value');
    if (version == null || value == null) return undefined;
    return { version: Number(version), value: JSON.parse(value) as SessionValue | null };
  }

  async write(key: string, expected: number, value: SessionValue | null): Promise<boolean> {
    const keep = value === null ? 7 * DAY_MS : value.expiresAt === null ? '' : keptFor(value.expiresAt);
    const written = await WRITE_SESSION.run(
      this.options.client(),
      [this.keyOf(key)],
      [expected, JSON.stringify(value), keep],
    );
    return written === 1;
  }

  private keyOf(key: string): string {
    return `${this.options.keyPrefix}:session:${key}`;
  }
}

/** How long Redis keeps a record that expires at `expiresAt`: until then, and a day more. */
function keptFor(expiresAt: number): number {
  return Math.max(0, expiresAt - Date.now()) + DAY_MS;
}
