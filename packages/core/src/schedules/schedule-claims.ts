import type { SessionStore, SessionValue } from '../sessions/session-store.js';

/** What a tick's claim records. */
interface ClaimData {
  /** The instance that claimed it (for the log). */
  by: string;
  claimedAt: number;
  state: 'running' | 'done';
}

/** How long claims are kept: long past any tick an instance could still try to claim. */
const CLAIM_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
/** Attempts of the compare-and-set that raises a schedule's last tick. */
const ATTEMPTS = 20;

/**
 * The claims of schedule ticks, in the bot's `SessionStore`: a tick runs where its claim was
 * created, a create-if-absent (the compare-and-set from version 0) keyed by the schedule and the
 * tick's scheduled time. Every instance sharing the store, before or after a restart, computes the
 * same ticks, so exactly one of them creates each claim. A claim is not a lease: it never expires
 * during the run, and a crash during a run does not run the tick again.
 */
export class ScheduleClaims {
  /**
   * @param store - the bot's session store
   * @param appId - the app, so two bots sharing a store never share a claim
   * @param instance - this instance's id, for the log
   */
  constructor(
    private readonly store: SessionStore,
    private readonly appId: string,
    private readonly instance: string,
  ) {}

  /**
   * Claims a tick.
   * @param name - the schedule
   * @param tick - its scheduled time
   * @param now - the clock's time
   * @returns whether this instance claimed it (false: another instance, or an earlier run, did)
   */
  claim(name: string, tick: number, now: number): Promise<boolean> {
    return this.store.write(
      this.claimKey(name, tick),
      0,
      this.value(tick, { by: this.instance, claimedAt: now, state: 'running' }),
    );
  }

  /** Marks a claimed tick's run as finished (so the next tick is no overlap). */
  async finish(name: string, tick: number): Promise<void> {
    const key = this.claimKey(name, tick);
    const record = await this.store.read(key);
    const data = record?.value?.data as ClaimData | undefined;
    if (record === undefined || data === undefined) return;
    await this.store.write(key, record.version, this.value(tick, { ...data, state: 'done' }));
  }

  /**
   * Whether a tick's run is still under way somewhere: claimed, not finished, and claimed less than
   * `withinMs` ago (a run past that was abandoned by its handler timeout, or its instance died).
   */
  async running(name: string, tick: number, now: number, withinMs: number): Promise<boolean> {
    const data = (await this.store.read(this.claimKey(name, tick)))?.value?.data as ClaimData | undefined;
    return data?.state === 'running' && now - data.claimedAt < withinMs;
  }

  /** The latest tick of a schedule known to have been reached (undefined: the schedule never ran). */
  async last(name: string): Promise<number | undefined> {
    const data = (await this.store.read(this.lastKey(name)))?.value?.data as { tick?: number } | undefined;
    return data?.tick;
  }

  /** Raises the latest tick reached to `tick`, unless it is already later (compare-and-set, retried). */
  async reach(name: string, tick: number): Promise<void> {
    const key = this.lastKey(name);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const record = await this.store.read(key);
      const known = (record?.value?.data as { tick?: number } | undefined)?.tick;
      if (known !== undefined && known >= tick) return;
      const value: SessionValue = { data: { tick }, shape: 1, expiresAt: null, applied: [] };
      if (await this.store.write(key, record?.version ?? 0, value)) return;
    }
  }

  private value(tick: number, data: ClaimData): SessionValue {
    return { data, shape: 1, expiresAt: tick + CLAIM_KEPT_MS, applied: [] };
  }

  private claimKey(name: string, tick: number): string {
    return `${this.appId}:schedule:${name}:tick:${new Date(tick).toISOString()}`;
  }

  private lastKey(name: string): string {
    return `${this.appId}:schedule:${name}:last`;
  }
}
