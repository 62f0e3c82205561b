import type { RateLimitInfo, Reservation, SharedRateLimit } from '@boardbot/rest';
import type { Redis } from 'ioredis';
import { RedisNotConnectedError } from '../errors.js';
import type { BucketKeys } from '../keys.js';
import { BLOCK, RESERVE, SETTLE } from '../scripts/limit-scripts.js';

/** How long a reserved slot counts as in flight when its replica never settles it (it died). */
const SLOT_TTL_MS = 60_000;
/** How long another replica waits for a window's probe before probing itself. */
const PROBE_MS = 5_000;

/** What the rate limit works with. */
export interface BucketAccess {
  client: Redis;
  keys: BucketKeys;
  replicaId: string;
}

/**
 * The app token's rate-limit window in Redis, shared by every replica: each REST call (and the
 * reader's gateway connection) reserves its slot with one script before it is sent, and settles it
 * with the answer's `X-RateLimit-*` headers, so that N replicas together count as one client and never
 * draw a 429 from a server that counts the way the contract says.
 */
export class RedisRateLimit implements SharedRateLimit {
  private reservations = 0;

  /** @param connected - the replica's connection and the token's bucket, once connected */
  constructor(private readonly connected: () => BucketAccess | undefined) {}

  async reserve(count: number): Promise<Reservation> {
    const c = this.use();
    const prefix = `${c.replicaId}:${this.reservations++}`;
    const [granted, waitMs, limit, blocked, generation] = (await RESERVE.run(
      c.client,
      [c.keys.bucket, c.keys.slots],
      [Math.max(1, count), prefix, SLOT_TTL_MS, PROBE_MS],
    )) as [number, number, string, number, number];
    const slots = Array.from({ length: granted }, (_, i) => `${prefix}:${i + 1}:${generation}`);
    return {
      slots,
      waitMs,
      blocked: blocked === 1,
      limit: limit === '' ? undefined : limit === 'inf' ? Number.POSITIVE_INFINITY : Number(limit),
    };
  }

  async settle(slot: string, info: RateLimitInfo | undefined | null): Promise<void> {
    const c = this.use();
    const generation = slot.slice(slot.lastIndexOf(':') + 1);
    const kind = info === null ? 'lost' : info === undefined ? 'none' : 'answer';
    await SETTLE.run(
      c.client,
      [c.keys.bucket, c.keys.slots],
      [slot, generation, kind, info?.limit ?? 0, info?.remaining ?? 0, Math.ceil(info?.resetDelayMs ?? 0)],
    );
  }

  async block(waitMs: number): Promise<void> {
    const c = this.use();
    await BLOCK.run(c.client, [c.keys.bucket], [Math.ceil(waitMs)]);
  }

  private use(): BucketAccess {
    const c = this.connected();
    if (!c) throw new RedisNotConnectedError('the shared rate limit');
    return c;
  }
}
