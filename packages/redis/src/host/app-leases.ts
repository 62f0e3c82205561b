import type { AppPlacement } from '@boardbot/core';
import type { Logger } from '@boardbot/protocol';
import type { Redis } from 'ioredis';
import { Lease } from '../lease/lease.js';
import { holderOf, planBalance } from '../partitions/balance.js';
import { HEARTBEAT } from '../scripts/feed-scripts.js';
import type { HostKeys } from './host-keys.js';

/**
 * Most apps a replica takes at one heartbeat. Each taken app's bot starts (its app read, its commands
 * synced, its gateway opened), one after the other: a replica taking over many apps at once must not
 * starve its own heartbeats, or it loses the leases of the apps it runs already.
 */
const TAKES_PER_BEAT = 8;

/** Where the leases of a host's apps live, and who this replica is among the host's replicas. */
export interface AppLeasesDeps {
  client: Redis;
  keys: HostKeys;
  replicaId: string;
  leaseMs: number;
  log: Logger;
  placement: AppPlacement;
}

/**
 * The apps of a host spread over its replicas, as a bot's partitions are over its replicas: one
 * lease per app (the same lease, heartbeat script and balance as the partitions), so each app runs
 * on one replica at a time. A replica that takes an app's lease starts the app's bot; one that gives
 * it up stops the bot gracefully first; one that dies frees its apps when their leases expire, and
 * the others take them over, each app's bot then resuming from its shared position in Redis.
 */
export class AppLeases {
  private readonly leases = new Map<string, Lease>();
  /** Apps being stopped here before their lease is given up. */
  private readonly releasing = new Set<string>();
  /** The starts and stops under way. */
  private readonly moves = new Set<Promise<unknown>>();
  /** The starts, one after the other. */
  private starts: Promise<unknown> = Promise.resolve();

  /** @param d - the connection, keys, this replica and the host */
  constructor(private readonly d: AppLeasesDeps) {}

  /** The apps this replica holds. */
  get held(): string[] {
    return [...this.leases.keys()];
  }

  /** Resolves once the starts and stops under way ended. */
  async settled(): Promise<void> {
    while (this.moves.size > 0) await Promise.all(this.moves);
  }

  /**
   * One heartbeat: renews this replica's membership and app leases in one script, stops the apps
   * whose lease was lost, then gives up the apps beyond its share and takes free ones up to it.
   * @param paused - renew nothing, take nothing (the host stops), unless `joining`
   * @param joining - only join the replicas (renews the membership; takes nothing) @defaultValue false
   */
  async beat(paused: boolean, joining = false): Promise<void> {
    const { client, keys, replicaId, leaseMs } = this.d;
    const apps = [...this.d.placement.apps()].sort();
    for (const [id, lease] of this.leases) {
      // An app removed from the host: its bot was stopped by the removal.
      if (!apps.includes(id)) this.give(id, lease, false);
    }
    const held = apps.map((id) => this.leases.get(id)?.value ?? '');
    const [members, owners, renewed] = (await HEARTBEAT.run(
      client,
      [keys.members, ...apps.map((id) => keys.app(id))],
      [paused && !joining ? '' : replicaId, leaseMs, ...held],
    )) as [string[], string[], number[]];
    held.forEach((value, i) => {
      const id = apps[i] as string;
      if (value === '' || renewed[i] === 1 || this.leases.get(id)?.value !== value) return;
      this.leases.get(id)?.forget();
      this.leases.delete(id);
      this.d.log.warn({ app: id }, 'app lease lost: stopping the app here, another replica takes it over');
      this.track(this.d.placement.release(id));
    });
    if (paused || !members.includes(replicaId)) return;
    const plan = planBalance({
      partitions: apps.length,
      members,
      owners: owners.map(holderOf),
      active: apps.flatMap((id, index) =>
        this.leases.has(id) && !this.releasing.has(id) ? [{ index, running: 0 }] : [],
      ),
      held: this.leases.size,
    });
    for (const i of plan.release) {
      const id = apps[i] as string;
      const lease = this.leases.get(id);
      if (lease) this.give(id, lease, true);
    }
    await Promise.all(plan.acquire.slice(0, TAKES_PER_BEAT).map((i) => this.take(apps[i] as string)));
  }

  /** Gives every app up (their bots were stopped by the host's stop). */
  async releaseAll(): Promise<void> {
    await this.settled();
    const leases = [...this.leases.values()];
    this.leases.clear();
    await Promise.all(leases.map((lease) => lease.release().catch(() => {})));
    await this.d.client.zrem(this.d.keys.members, this.d.replicaId).catch(() => {});
  }

  private async take(id: string): Promise<void> {
    const { client, keys, replicaId, leaseMs } = this.d;
    const lease = new Lease(client, keys.app(id), keys.fence, replicaId, leaseMs);
    if (!(await lease.acquire())) return;
    this.leases.set(id, lease);
    this.d.log.info({ app: id }, 'app taken: running it on this replica');
    // Lost or given up while it waited for its turn: nothing to start.
    const start = this.starts.then(() => (this.leases.get(id) === lease ? this.d.placement.run(id) : undefined));
    this.starts = start.catch(() => {});
    this.track(start);
  }

  /** Stops the app here (when `stop`), then gives its lease up, unless it was lost meanwhile. */
  private give(id: string, lease: Lease, stop: boolean): void {
    this.releasing.add(id);
    const stopped = stop ? this.d.placement.release(id) : Promise.resolve();
    this.track(
      stopped.then(async () => {
        this.releasing.delete(id);
        if (this.leases.get(id) !== lease) return;
        this.leases.delete(id);
        await lease.release().catch(() => {});
        this.d.log.info({ app: id }, 'app handed over');
      }),
    );
  }

  private track(move: Promise<unknown>): void {
    const tracked = move
      .catch((error: unknown) => this.d.log.warn({ err: error }, 'an app could not be moved'))
      .finally(() => this.moves.delete(tracked));
    this.moves.add(tracked);
  }
}
