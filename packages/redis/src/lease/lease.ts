import type { Redis } from 'ioredis';
import { ACQUIRE_LEASE, RELEASE_LEASE, RENEW_LEASE } from '../scripts/lease-scripts.js';

/**
 * A lease in Redis with a fencing token: one holder at a time, for `ttlMs` unless renewed. The value
 * a holder gets (`<token>:<replica>`) is what the scripts it runs later check, so a holder that lost
 * the lease (it was paused past its expiry and another took it) can no longer act under it.
 */
export class Lease {
  private held: string | undefined;

  /**
   * @param client - the connection
   * @param key - the lease's key
   * @param fence - the fencing-token counter
   * @param holder - this replica's id
   * @param ttlMs - how long the lease lasts without renewal
   */
  constructor(
    private readonly client: Redis,
    private readonly key: string,
    private readonly fence: string,
    private readonly holder: string,
    private readonly ttlMs: number,
  ) {}

  /** The value this replica holds the lease under, if it holds it. */
  get value(): string | undefined {
    return this.held;
  }

  /** The fencing token of the value held, if any. */
  get token(): number | undefined {
    return this.held === undefined ? undefined : Number(this.held.split(':')[0]);
  }

  /** Takes the lease if it is free. @returns whether this replica holds it now */
  async acquire(): Promise<boolean> {
    if (this.held !== undefined) return true;
    const value = await ACQUIRE_LEASE.run(this.client, [this.key, this.fence], [this.holder, this.ttlMs]);
    if (typeof value !== 'string') return false;
    this.held = value;
    return true;
  }

  /** Extends the lease. @returns false when it was lost (expired and maybe taken by another) */
  async renew(): Promise<boolean> {
    if (this.held === undefined) return false;
    const ok = await RENEW_LEASE.run(this.client, [this.key], [this.held, this.ttlMs]);
    if (ok !== 1) this.held = undefined;
    return ok === 1;
  }

  /** Gives the lease up (if still held), so another replica can take it at once. */
  async release(): Promise<void> {
    const value = this.held;
    this.held = undefined;
    if (value !== undefined) await RELEASE_LEASE.run(this.client, [this.key], [value]);
  }

  /** Forgets the lease without telling Redis (it was found lost). */
  forget(): void {
    this.held = undefined;
  }
}
