import type { CooldownMetadata, CooldownStore } from '@boardbot/core';
import type { Connected } from '../connection.js';
import { RedisNotConnectedError } from '../errors.js';
import { TAKE_COOLDOWN } from '../scripts/limit-scripts.js';

/**
 * Cooldown windows in Redis, shared by every replica: a person held by `@Cooldown` on one replica is
 * held on all. A window is a sorted set of uses by time, counted and taken in one script on Redis's
 * clock; a use taken again by the same event (handled again after a failover) counts once.
 */
export class RedisCooldowns implements CooldownStore {
  /** @param connected - the replica's connection, once connected */
  constructor(private readonly connected: () => Connected | undefined) {}

  async take(key: string, cooldown: CooldownMetadata, useId: string): Promise<number> {
    const c = this.connected();
    if (!c) throw new RedisNotConnectedError('the shared cooldowns');
    const wait = await TAKE_COOLDOWN.run(c.client, [c.keys.cooldown(key)], [cooldown.ms, cooldown.uses, useId]);
    return Number(wait);
  }
}
