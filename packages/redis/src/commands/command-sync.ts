import type { CommandSyncPlan } from '@boardbot/core';
import { type Connected, sleep } from '../connection.js';
import { Lease } from '../lease/lease.js';
import { COMMAND_SETS } from '../scripts/limit-scripts.js';

/** How long a replica waits for another one's sync of the same set to end. */
const LOCK_WAIT_MS = 15_000;

/**
 * Syncs the commands once across replicas, and settles a rolling deploy without flapping. Each
 * replica registers the hash of its command set with when it was first seen; the set that should be
 * registered is the one first seen most recently among the sets a live replica runs. So the first
 * replica of a new deploy registers its set, the old replicas still running leave it alone (theirs is
 * older), and the set of a deploy no replica runs any more drops out, so a rollback re-registers the
 * old set as the newest. The sync itself (read, compare, one `PUT` only when different) runs under a
 * lease, in one replica at a time, and again when the winning set was not registered yet (its
 * replica started while another deploy's set won).
 */
export class CommandSync {
  private hash: string | undefined;
  private sync: (() => Promise<CommandSyncPlan | undefined>) | undefined;

  /**
   * @param c - the replica's connection
   * @param leaseMs - lease duration; a set is live while a replica ran it within three of them (10 s at least)
   */
  constructor(
    private readonly c: Connected,
    private readonly leaseMs: number,
  ) {}

  /**
   * Registers this replica's set and syncs it if it is the one that should be registered.
   * @param hash - the hash of this replica's command set
   * @param sync - reconciles the registered commands with this replica's
   */
  async syncCommands(
    hash: string,
    sync: () => Promise<CommandSyncPlan | undefined>,
  ): Promise<CommandSyncPlan | undefined> {
    this.hash = hash;
    this.sync = sync;
    const [winner] = await this.register(hash);
    if (winner !== hash) {
      this.c.log.info(
        { commands_hash: hash, registered_hash: winner },
        'commands: a newer deploy runs another command set; this replica leaves the registered commands as they are',
      );
      return undefined;
    }
    return this.syncLocked(hash, sync);
  }

  /** One heartbeat: keeps this replica's set live, and syncs it if it won and is not registered. */
  async tick(): Promise<void> {
    const hash = this.hash;
    const sync = this.sync;
    if (hash === undefined || sync === undefined) return;
    const [winner, synced] = await this.register(hash);
    if (winner === hash && synced !== hash) {
      this.c.log.info({ commands_hash: hash }, 'commands: this replica’s set is now the newest running: syncing it');
      await this.syncLocked(hash, sync);
    }
  }

  private async register(hash: string): Promise<[string, string]> {
    const { client, keys } = this.c;
    const liveMs = Math.max(10_000, 3 * this.leaseMs);
    return (await COMMAND_SETS.run(
      client,
      [keys.commandSets, keys.commandSetsSeen, keys.commandsSynced],
      [hash, liveMs],
    )) as [string, string];
  }

  private async syncLocked(
    hash: string,
    sync: () => Promise<CommandSyncPlan | undefined>,
  ): Promise<CommandSyncPlan | undefined> {
    const { client, keys, replicaId } = this.c;
    const lock = new Lease(client, keys.commandsLock, keys.fence, replicaId, LOCK_WAIT_MS);
    const end = this.c.clock.now() + LOCK_WAIT_MS;
    while (!(await lock.acquire())) {
      if (this.c.clock.now() > end) {
        this.c.log.warn('commands: another replica held the sync lock too long; the next heartbeat tries again');
        return undefined;
      }
      await sleep(this.c.clock, 100);
    }
    try {
      const plan = await sync();
      await client.set(keys.commandsSynced, hash);
      return plan;
    } finally {
      await lock.release().catch(() => {});
    }
  }
}
