/** What a replica knows at a heartbeat: the live replicas, who holds each partition, what it holds. */
export interface BalanceState {
  partitions: number;
  /** The live replicas' ids (this one included). */
  members: readonly string[];
  /** For each partition, the replica holding its lease, or '' when it is free. */
  owners: readonly string[];
  /** This replica's partitions that are not being released, with how many of their entries run. */
  active: readonly { index: number; running: number }[];
  /** How many partitions this replica holds, releasing ones included. */
  held: number;
}

/** What to do at this heartbeat. */
export interface BalancePlan {
  /** Partitions to release (gracefully: once their running entries finished). */
  release: number[];
  /** Free partitions to try to take. */
  acquire: number[];
}

/**
 * Spreads the partitions over the live replicas without a coordinator: each replica aims at a fair
 * share (⌊P/N⌋ or ⌈P/N⌉ of P partitions among N replicas), releases what it holds beyond ⌈P/N⌉, and
 * one more while some replica holds fewer than ⌊P/N⌋, and takes free partitions up to its share
 * (only up to ⌊P/N⌋ while some replica is below it, so the partitions freed for a newcomer go to
 * it). A replica that dies frees its partitions when its leases expire; the others take them. The
 * least busy partitions move first.
 *
 * @param s - the state at this heartbeat
 * @param random - shuffles the free partitions, so that replicas do not all race for the same one
 */
export function planBalance(s: BalanceState, random: () => number = Math.random): BalancePlan {
  const n = Math.max(1, s.members.length);
  const floor = Math.floor(s.partitions / n);
  const ceil = Math.ceil(s.partitions / n);
  const counts = new Map(s.members.map((m) => [m, 0]));
  for (const owner of s.owners) {
    const count = counts.get(owner);
    if (count !== undefined) counts.set(owner, count + 1);
  }
  const starving = [...counts.values()].some((c) => c < floor);
  const extra = s.held > ceil ? s.held - ceil : starving && s.held > floor ? 1 : 0;
  const release = [...s.active]
    .sort((a, b) => a.running - b.running)
    .slice(0, extra)
    .map((p) => p.index);
  const limit = (starving ? floor : ceil) - s.held;
  const free = s.owners.flatMap((owner, index) => (owner === '' ? [index] : []));
  for (let i = free.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [free[i], free[j]] = [free[j] as number, free[i] as number];
  }
  return { release, acquire: extra > 0 ? [] : free.slice(0, Math.max(0, limit)) };
}

/**
 * The replica holding a lease, from its value (`<token>:<replica>`).
 * @param value - the lease value, or '' when free
 */
export function holderOf(value: string): string {
  const i = value.indexOf(':');
  return i < 0 ? '' : value.slice(i + 1);
}
