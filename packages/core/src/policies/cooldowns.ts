import type { CooldownStore } from './cooldown-store.js';
import type { CooldownMetadata } from './metadata.js';

interface Window {
  ms: number;
  stamps: number[];
}

/** Past this many tracked keys, expired ones are swept so idle people do not hold memory forever. */
const SWEEP_AT = 10_000;

/**
 * Counts uses per cooldown key (handler and scope id) in a sliding window, on an injected clock.
 */
export class Cooldowns implements CooldownStore {
  private readonly windows = new Map<string, Window>();

  /** @param now - the clock, in milliseconds */
  constructor(private readonly now: () => number) {}

  /**
   * Takes one use when the window allows it.
   * @param key - handler and scope id, e.g. `Roll.run:user:<id>`
   * @param cooldown - window and uses
   * @returns 0 when the use was taken, else the milliseconds until the next use is allowed
   */
  take(key: string, cooldown: CooldownMetadata): number {
    const now = this.now();
    const window = this.windows.get(key) ?? { ms: cooldown.ms, stamps: [] };
    window.stamps = window.stamps.filter((t) => now - t < cooldown.ms);
    if (window.stamps.length >= cooldown.uses) {
      this.windows.set(key, window);
      return (window.stamps[0] as number) + cooldown.ms - now;
    }
    window.stamps.push(now);
    this.windows.set(key, window);
    if (this.windows.size > SWEEP_AT) this.sweep(now);
    return 0;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) {
      if (w.stamps.every((t) => now - t >= w.ms)) this.windows.delete(key);
    }
  }
}
