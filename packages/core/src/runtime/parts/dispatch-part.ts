import type { Assembly } from '../assemble.js';
import type { StopReport } from '../exit-codes.js';
import type { BotPart } from './part.js';

/** What a stop that finished everything reports. */
export const NOTHING_LEFT: StopReport = { abandoned: [], unhandled: 0 };

/**
 * The dispatch: the queue and the running handlers. Its stop, once the source took no new event,
 * tells the running handlers the bot is stopping (streamed answers end, marked interrupted) and waits
 * up to `shutdownTimeoutMs` for the queued and running ones; then it gives up on what is left: the
 * source records nothing more as done (what ends from now on is handled again by the next process),
 * queued events are dropped, and running handlers are abandoned. Its report says which.
 */
export class DispatchPart implements BotPart {
  readonly name = 'dispatch';
  /** What the last stop left undone. */
  report: StopReport = NOTHING_LEFT;

  /**
   * @param built - the queue, dispatcher, clock and logger
   * @param timeoutMs - `shutdownTimeoutMs`
   * @param giveUp - tells the source that the stop gave up on what was left
   */
  constructor(
    private readonly built: Assembly,
    private readonly timeoutMs: number,
    private readonly giveUp: () => void,
  ) {}

  async stop(): Promise<void> {
    const { queue, clock, dispatcher, log } = this.built;
    const timeoutMs = this.timeoutMs;
    // Held bursts stay held (before the resume point, run by the next process); runs going finish.
    dispatcher.close();
    // Streamed answers end now, marked interrupted, within the wait below; their events stay above the
    // resume point (a stream could run for minutes, and the next start completes the answer anyway).
    dispatcher.chain.interruptRunning();
    let timer: unknown;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = clock.setTimeout(() => resolve(true), timeoutMs);
    });
    // Streams that released their slot run outside the queue: their final edits are waited for too.
    const drained = queue.idle().then(() => dispatcher.chain.settled());
    const late = await Promise.race([drained.then(() => false), timedOut]);
    clock.clearTimeout(timer);
    if (!late) return;
    this.giveUp();
    // Queued events first: a handler freed by its abandonment must not let one of them start.
    const unhandled = queue.discardQueued();
    const abandoned = dispatcher.chain.abandonRunning(timeoutMs);
    log.warn({ abandoned: abandoned.length, unhandled, timeout_ms: timeoutMs }, 'handlers still running at shutdown');
    this.report = { abandoned: abandoned.map((run) => ({ handler: run.handler, eventId: run.eventId })), unhandled };
  }
}
