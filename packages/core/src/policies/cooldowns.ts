import type { CooldownStore } from './cooldown-store.js';
import type { CooldownMetadata } from './metadata.js';

/** One use in a window: when it was taken, and the id it was taken under. */
interface Use {
  at: number;
  id: string;
}

interface Window {
  ms: number;
  uses: Use[];
}

/** Past this many tracked keys, expired ones are swept so idle people do not hold memory forever. */
const SWEEP_AT = 10_000;

/**
 * Counts uses per cooldown key (handler and scope id) in a sliding window, on an injected clock. A
 * use taken again under the same id (its event handled again) counts once, as in the shared stores:
 * an instance given as `createBot({ cooldowns })` to a bot and to the one that replaces it holds an
 * edit handled again after a crash to the one use it took.
 */
export class Cooldowns implements CooldownStore {
  private readonly windows = new Map<string, Window>();

  /** @param now - the clock, in milliseconds */
  constructor(private readonly now: () => number) {}

  /**
   * Takes one use when the window allows it.
   * @param key - handler and scope id, e.g. `Roll.run:user:<id>`
   * @param cooldown - window and uses
   * @param useId - names this use (derived from the event and the handler)
   * @returns 0 when the use was taken (or had been, under this id), else the milliseconds until the next use is allowed
   */
  take(key: string, cooldown: CooldownMetadata, useId: string): number {
    const now = this.now();
    const window = this.windows.get(key) ?? { ms: cooldown.ms, uses: [] };
    window.uses = window.uses.filter((u) => now - u.at < cooldown.ms);
    this.windows.set(key, window);
    if (window.uses.some((u) => u.id === useId)) return 0;
    if (window.uses.length >= cooldown.uses) return (window.uses[0] as Use).at + cooldown.ms - now;
    window.uses.push({ at: now, id: useId });
    if (this.windows.size > SWEEP_AT) this.sweep(now);
    return 0;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) {
      if (w.uses.every((u) => now - u.at >= w.ms)) this.windows.delete(key);
    }
  }
}
