import type { Logger } from '@boardbot/protocol';
import type { MetricsSink } from '../../telemetry/metrics-sink.js';

/** What hears the intake pause and resume (logs and metrics). */
export interface BackpressureHooks {
  /** The count reached the high-water mark: the gateway stops reading. */
  paused(count: number): void;
  /** The count fell to the low-water mark: the gateway reads on. */
  resumed(count: number): void;
}

/**
 * A bound with two marks, for an event source (the bot's intake, a replica's shared backlog): counts
 * the events it holds (queued or running, and held behind a gap's backfill) and, from `high` on,
 * closes the gate the gateway asks before each read; the gate opens
 * again once the count falls to `low`. Two marks, so a full queue does not pause and resume on every
 * event. The gateway finishes the chunk it read, so the count can pass `high` by one chunk's events.
 */
export class Backpressure {
  /** The high-water mark: the gate closes at this count. */
  readonly high: number;
  /** The low-water mark: the gate opens again at this count. */
  readonly low: number;
  private held = 0;
  private gateOpen: (() => void) | undefined;
  private gatePromise: Promise<void> | undefined;

  /**
   * @param high - the high-water mark (at least 1)
   * @param low - the low-water mark (below `high`)
   * @param hooks - hears the pauses and resumes
   */
  constructor(
    high: number,
    low: number,
    private readonly hooks: BackpressureHooks,
  ) {
    this.high = high;
    this.low = low;
  }

  /** Events held now. */
  get count(): number {
    return this.held;
  }

  /** Whether the gateway is told to stop reading. */
  get paused(): boolean {
    return this.gatePromise !== undefined;
  }

  /** One more event held. */
  add(): void {
    this.held++;
    if (!this.gatePromise && this.held >= this.high) this.close();
  }

  /** One event let go (handled, or passed on). */
  done(): void {
    this.held--;
    if (this.gatePromise && this.held <= this.low) this.open();
  }

  /**
   * The count as measured elsewhere (a replicas' shared backlog, counted in Redis), instead of
   * {@link add} and {@link done}: the same marks close and open the gate.
   * @param count - the events held now
   */
  measure(count: number): void {
    this.held = count;
    if (!this.gatePromise && count >= this.high) this.close();
    else if (this.gatePromise && count <= this.low) this.open();
  }

  /** A promise while the gateway must not read; undefined when it may. */
  gate(): Promise<void> | undefined {
    return this.gatePromise;
  }

  /** Opens the gate for good (at stop: a reader waiting on it must see the stream close). */
  release(): void {
    if (this.gatePromise) this.open();
  }

  private close(): void {
    this.gatePromise = new Promise<void>((resolve) => {
      this.gateOpen = resolve;
    });
    this.hooks.paused(this.held);
  }

  private open(): void {
    const resolve = this.gateOpen;
    this.gatePromise = undefined;
    this.gateOpen = undefined;
    this.hooks.resumed(this.held);
    resolve?.();
  }
}

/**
 * The bot's intake bound: pauses at `maxPendingEvents`, resumes at half of it, and says both in the
 * log (warn, info) and the metrics.
 * @param parts - the bot's logger and telemetry
 * @param high - `maxPendingEvents`
 * @param reader - what stops reading, in the log: the gateway (one process) or this replica (it
 * stops reading and claiming entries of the shared log)
 */
export function intakeBound(
  parts: { log: Logger; telemetry: { metrics: MetricsSink | undefined } },
  high: number,
  reader: 'the gateway' | 'this replica' = 'the gateway',
): Backpressure {
  const low = Math.floor(high / 2);
  const log = parts.log.child({ component: 'intake' });
  return new Backpressure(high, low, {
    paused(count) {
      log.warn({ pending: count, high, low }, `intake full: ${reader} stops reading until handlers catch up`);
      parts.telemetry.metrics?.intakeBackpressure?.(true);
    },
    resumed(count) {
      log.info({ pending: count, high, low }, `intake drained: ${reader} reads on`);
      parts.telemetry.metrics?.intakeBackpressure?.(false);
    },
  });
}
