import type { Logger } from '@boardbot/protocol';
import type { Clock } from '../../kernel/clock.js';
import type { PositionKey, PositionStore } from './position-store.js';
import type { Progress } from './progress.js';

/**
 * Saves the resume point of a {@link Progress} to its store, batched: at most one save every
 * `flushMs` while marks move, one at a time, and a last one at stop. A crash between two saves
 * costs only a replay of the events finished since the last one; their writes carry the same
 * event-derived idempotency keys, so the platform answers them with what was already written.
 */
export class PositionKeeper {
  private savedVersion: number;
  private timer: unknown;
  private saving: Promise<void> | undefined;
  private failures = 0;
  private stopped = false;

  /**
   * @param store - where positions live
   * @param key - the bot's API URL and app id
   * @param progress - the marks to save
   * @param options - save interval, clock, logger
   */
  constructor(
    private readonly store: PositionStore,
    private readonly key: PositionKey,
    private readonly progress: Progress,
    private readonly options: { flushMs: number; clock: Clock; log: Logger },
  ) {
    this.savedVersion = progress.version;
  }

  /** Tells the keeper that marks may have moved: a save is scheduled if none is. */
  changed(): void {
    if (this.stopped || this.timer !== undefined || this.progress.version === this.savedVersion) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.flushMs);
  }

  /** Saves now if the marks moved since the last save; resolves when the position is stored. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      this.options.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.saving) await this.saving;
    const version = this.progress.version;
    if (version === this.savedVersion) return;
    const position = this.progress.snapshot(this.options.clock.now());
    this.saving = this.store.save(this.key, position).then(
      () => {
        this.savedVersion = version;
        this.failures = 0;
      },
      (err: unknown) => {
        // Logged on the first failure and then every hundredth, so a full disk does not flood the log.
        if (this.failures++ % 100 === 0) {
          this.options.log.error({ err, store: this.store.description }, 'could not save the resume point');
        }
      },
    );
    try {
      await this.saving;
    } finally {
      this.saving = undefined;
    }
    // Marks that moved during the save are saved by the next round.
    this.changed();
  }

  /** Stops scheduling saves (after a last {@link flush}). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
