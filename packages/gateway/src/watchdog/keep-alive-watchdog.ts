/** The clock a watchdog runs on; injectable so tests control time. */
export interface WatchdogClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Fires when nothing arrived for `timeoutMs`. `touch()` is on the hot path (every network chunk), so
 * it only records the time: the single timer re-arms itself for the remaining silence when it fires
 * early, instead of being cleared and set again per chunk.
 */
export class KeepAliveWatchdog {
  readonly #timeoutMs: number;
  readonly #clock: WatchdogClock;
  readonly #onTimeout: () => void;
  #last = 0;
  #handle: unknown;
  #armed = false;

  /**
   * @param timeoutMs - Silence tolerated before `onTimeout`.
   * @param clock - Time source and timers.
   * @param onTimeout - Called once when the silence is reached; the watchdog is then stopped.
   */
  constructor(timeoutMs: number, clock: WatchdogClock, onTimeout: () => void) {
    this.#timeoutMs = timeoutMs;
    this.#clock = clock;
    this.#onTimeout = onTimeout;
  }

  /** Starts (or restarts) watching from now. */
  start(): void {
    this.stop();
    this.#last = this.#clock.now();
    this.#arm(this.#timeoutMs);
  }

  /** Records activity: anything at all arrived. */
  touch(): void {
    this.#last = this.#clock.now();
  }

  /** Stops watching (closed, or paused while the consumer, not the network, is slow). */
  stop(): void {
    if (this.#armed) this.#clock.clearTimeout(this.#handle);
    this.#armed = false;
    this.#handle = undefined;
  }

  #arm(ms: number): void {
    this.#armed = true;
    this.#handle = this.#clock.setTimeout(this.#fire, ms);
  }

  readonly #fire = (): void => {
    this.#armed = false;
    this.#handle = undefined;
    const silent = this.#clock.now() - this.#last;
    if (silent >= this.#timeoutMs) this.#onTimeout();
    else this.#arm(this.#timeoutMs - silent);
  };
}
