import { Backpressure } from '@boardbot/core';
import type { Connected } from '../connection.js';

/**
 * The shared backlog, which bounds the reader: the events it took from the gateway that no replica
 * has handled yet (acknowledged, or dead-lettered), that is those waiting to be appended here and
 * those in the in-flight set (`ZCARD <base>:inflight`, the `boardbot_replica_pending_events` gauge).
 * At `maxBacklog` the reader's gateway stops reading (the platform keeps the events); it reads on
 * once half as many are left. Redis counts the appended ones, as the replicas acknowledge them: the
 * reader measures that on each heartbeat (how a pause ends), and after appends once its last measure
 * plus what it appended and queued since reaches the mark, so traffic well below the mark costs no
 * extra command. Until a measure comes back, what was appended since counts as not handled.
 */
export class Backlog {
  private readonly bound: Backpressure;
  /** The in-flight set's size at the last measure. */
  private measured = 0;
  /** Appended since the last measure came back. */
  private unmeasured = 0;
  private measuring: Promise<void> | undefined;
  private again = false;

  /**
   * @param c - the replica's connection
   * @param high - `maxBacklog`
   * @param waiting - how many events the reader holds that are not appended yet
   */
  constructor(
    private readonly c: Connected,
    high: number,
    private readonly waiting: () => number,
  ) {
    const low = Math.floor(high / 2);
    this.bound = new Backpressure(high, low, {
      paused: (backlog) =>
        c.log.warn(
          { backlog, high, low },
          'shared backlog full: the reader stops reading the gateway until the replicas catch up',
        ),
      resumed: (backlog) => c.log.info({ backlog, high, low }, 'shared backlog drained: the reader reads on'),
    });
  }

  /** A promise while the reader's gateway must not read; undefined when it may. */
  gate(): Promise<void> | undefined {
    return this.bound.gate();
  }

  /**
   * The reader queued or dropped events, or appended some.
   * @param appended - how many were appended (new entries) since the last call
   */
  changed(appended = 0): void {
    this.unmeasured += appended;
    // Measured again once the backlog may have reached the mark: the gate closes on this upper
    // bound at once, and the measure opens it again if the replicas have caught up.
    if (this.update() >= this.bound.high) void this.measure();
  }

  /** Measures the backlog (one measure at a time; one asked meanwhile runs after it). Never rejects. */
  measure(): Promise<void> {
    if (this.measuring) {
      this.again = true;
      return this.measuring;
    }
    this.measuring = this.c.client
      .zcard(this.c.keys.inflight)
      .then(
        (count) => {
          // Replies come in order: the count covers every append whose reply came before it.
          this.measured = count;
          this.unmeasured = 0;
          this.update();
        },
        // Redis unreachable: the heartbeat reports it; the next one measures again.
        () => {},
      )
      .finally(() => {
        this.measuring = undefined;
        if (this.again) {
          this.again = false;
          void this.measure();
        }
      });
    return this.measuring;
  }

  private update(): number {
    const backlog = this.measured + this.unmeasured + this.waiting();
    this.bound.measure(backlog);
    return backlog;
  }
}
