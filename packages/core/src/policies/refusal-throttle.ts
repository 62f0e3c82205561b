import type { Logger } from '@boardbot/protocol';

/** How long one person's refusals about one command are held back after one is posted (`createBot({ refusalIntervalMs })`). */
export const DEFAULT_REFUSAL_INTERVAL_MS = 3000;

/** Past this many tracked people and commands, those whose window passed are forgotten. */
const SWEEP_AT = 10_000;

/**
 * At most one refusal a window for each person and command: a refusal posted on the board is a
 * message that spends the app's shared rate limit, so one person flooding a command on cooldown
 * would otherwise slow every answer of the bot. The refusals held back are logged and counted.
 */
export class RefusalThrottle {
  private readonly windows = new Map<string, { at: number; held: number }>();

  /**
   * @param now - the clock, in milliseconds
   * @param windowMs - the window; 0 sends every refusal
   */
  constructor(
    private readonly now: () => number,
    private readonly windowMs: number,
  ) {}

  /**
   * Whether a refusal to `who` about `what` may be posted now; one held back is logged on `log`.
   * @param who - the person (a user id)
   * @param what - the command as typed (`!daily`), or what else was refused
   * @param log - the run's logger
   */
  admit(who: string, what: string, log: Logger): boolean {
    if (this.windowMs <= 0) return true;
    const key = `${who}\n${what}`;
    const now = this.now();
    const window = this.windows.get(key);
    if (window === undefined || now - window.at >= this.windowMs) {
      if (window !== undefined && window.held > 0)
        log.info({ held: window.held }, 'refusals held back in the last window');
      this.windows.set(key, { at: now, held: 0 });
      if (this.windows.size > SWEEP_AT) this.sweep(now);
      return true;
    }
    window.held++;
    // The first one held back in a window is told at info; a flood's others only at debug.
    const level = window.held === 1 ? 'info' : 'debug';
    log[level]({ refused: what, held: window.held }, 'refusal not posted: this person was told in this window');
    return false;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (now - w.at >= this.windowMs) this.windows.delete(key);
  }
}
