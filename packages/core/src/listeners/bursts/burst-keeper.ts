import type { Logger, Message } from '@boardbot/protocol';
import { RunCancelledError } from '../../errors.js';
import type { Clock } from '../../kernel/clock.js';
import type { EventMeta } from '../../kernel/event.js';
import { type DispatchOutcome, releasedOutcome } from '../../kernel/outcome.js';
import type { HandlerRun } from '../../kernel/run.js';
import type { BurstCount } from '../../telemetry/metrics-sink.js';
import { BurstBatch } from './burst-batch.js';
import type { BurstPolicy } from './burst-policy.js';

/** What a burst's run is given: its event, the messages it stands for, and a hook that sees its run. */
export interface BurstRun {
  /** The run's event: the newest message's, with the idempotency keys' basis of the burst. */
  meta: EventMeta;
  /** The earlier messages of the burst, oldest first (`ctx.skipped`). */
  skipped: readonly Message[];
  /** How many messages the run stands for besides its own: `skipped`, and those released past the cap. */
  skippedCount: number;
  /** Hears the run once it is made, so that `'latest'` can cancel it. */
  opened(run: HandlerRun): void;
}

/** One message a listener with a burst policy took, and how to run the listener for it. */
export interface HeldMessage {
  message: Message;
  /** Its event (its outcome hears how the run that covers it ended). */
  meta: EventMeta;
  /** Runs the listener with this message as `ctx.message`; never rejects. */
  launch(run: BurstRun): Promise<void>;
}

/** What a keeper works with. */
export interface BurstKeeperDeps {
  clock: Clock;
  log: Logger;
  /** Runs a burst's run as a worker of the bot's queue (outside any ordering slot). */
  schedule(task: () => Promise<void>): Promise<void>;
  /** Counts what the policy did (the metrics). */
  count(what: BurstCount, n: number): void;
}

interface Entry extends HeldMessage {
  release(): void;
}

type Batch = BurstBatch<Entry>;

/** The state of one burst key: what is held, what is ready to run, what runs. */
interface KeyState {
  /** Held, not yet ready: the open debounce burst, or what arrived during a run. */
  held: Batch;
  /** `'debounce'`: the `created_at` (ms) of the open burst's newest message. */
  last: number;
  timer: unknown;
  /** Batches ready to run, in order; runs of one key never overlap. */
  ready: Batch[];
  running: { batch: Batch; run?: HandlerRun; cancel: boolean; outcome?: DispatchOutcome } | undefined;
}

/**
 * The burst policy of one listener: takes each message it matched under its burst key, holds it,
 * and runs the listener once per burst as the policy says. A held message is released (its event is
 * done, the resume point may pass it) only when the run that covers it ended, so a crash while a
 * burst is held loses none of it. Which messages form a debounce burst is decided by their
 * `created_at` (the platform's time), and a burst's run takes its idempotency keys from its first
 * message, so a replay after a crash forms the same bursts and writes with the same keys. A burst
 * holds at most `max` messages: past it, the oldest but the first is released unread (its event is
 * done), so the burst keeps its keys' basis and its newest messages, and one person's flood holds no
 * more than `max` of the intake's bound.
 */
export class BurstKeeper {
  private readonly keys = new Map<string, KeyState>();
  private closed = false;

  /**
   * @param policy - the listener's policy
   * @param deps - clock, logger, the queue's workers and the metrics
   */
  constructor(
    private readonly policy: BurstPolicy,
    private readonly deps: BurstKeeperDeps,
  ) {}

  /**
   * Takes one message the listener matched.
   * @param held - the message, its event and how to run the listener for it
   * @returns resolves once the run that covers it ended (or it was dropped); never rejects
   */
  take(held: HeldMessage): Promise<void> {
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const entry: Entry = { ...held, release };
    const key = this.keyOf(held.message);
    let state = this.keys.get(key);
    if (!state) {
      state = { held: this.batch(), last: 0, timer: undefined, ready: [], running: undefined };
      this.keys.set(key, state);
    }
    const busy = state.running !== undefined || state.ready.length > 0;
    switch (this.policy.mode) {
      case 'drop':
        if (busy) {
          this.deps.count('skipped', 1);
          this.deps.log.debug(
            { message_id: held.message.id },
            "message dropped: a run of its burst is going (burst 'drop')",
          );
          release();
          return done;
        }
        state.ready.push(this.batch(entry));
        break;
      case 'latest':
      case 'collapse':
        if (!busy) state.ready.push(this.batch(entry));
        else {
          if (state.held.entries.length === 0) this.deps.count('held', 1);
          this.released(state.held.add(entry));
          if (this.policy.mode === 'latest') this.cancel(state);
        }
        break;
      case 'debounce':
        this.debounce(key, state, entry);
        break;
    }
    this.pump(key, state);
    return done;
  }

  /**
   * Runs nothing more (at stop): what is held and not running is let go as abandoned, so it is not
   * done (the resume point stays before it, replicas leave it pending for the next owner); runs going end.
   */
  close(): void {
    this.closed = true;
    for (const state of this.keys.values()) this.abandonHeld(state);
  }

  private abandonHeld(state: KeyState): void {
    this.deps.clock.clearTimeout(state.timer);
    const held = [state.held, ...state.ready.splice(0)];
    state.held = this.batch();
    for (const entry of held.flatMap((batch) => batch.entries)) {
      if (entry.meta.outcome) entry.meta.outcome.abandoned = true;
      entry.release();
    }
  }

  private keyOf(message: Message): string {
    if (this.policy.per === 'board') return message.board_id;
    return `${message.board_id}:${message.author ?? `webhook:${message.webhook_name ?? ''}`}`;
  }

  private debounce(key: string, state: KeyState, entry: Entry): void {
    const created = Date.parse(entry.message.created_at);
    // By the platform's time the open burst ended before this message: it is closed now, whatever the
    // bot's clock says (a replay after a crash forms the same bursts as the first delivery).
    if (state.held.entries.length > 0 && created - state.last >= this.policy.ms) this.closeBurst(state);
    if (state.held.entries.length === 0) this.deps.count('held', 1);
    this.released(state.held.add(entry));
    state.last = Math.max(state.last, created);
    this.deps.clock.clearTimeout(state.timer);
    // `ms` after the newest message by its created_at, or after it arrived if that is later: the rest
    // of a burst replayed after a crash arrives within it and joins (by created_at) before it runs.
    const wait = this.policy.ms + Math.max(0, state.last - this.deps.clock.now());
    state.timer = this.deps.clock.setTimeout(() => {
      if (this.closed) return;
      this.closeBurst(state);
      this.pump(key, state);
    }, wait);
  }

  /** A batch within the policy's cap, with its first message. */
  private batch(entry?: Entry): Batch {
    const batch = new BurstBatch<Entry>(this.policy.max);
    if (entry) batch.add(entry);
    return batch;
  }

  /** Counts the messages a batch released past its cap: skipped, and released unread. */
  private released(count: number): void {
    if (count === 0) return;
    this.deps.count('skipped', count);
    this.deps.count('released', count);
  }

  /** The burst held, as a batch ready to run; nothing is held after. */
  private takeHeld(state: KeyState): Batch {
    const batch = state.held;
    state.held = this.batch();
    return batch;
  }

  /** Closes the open debounce burst: ready to run. */
  private closeBurst(state: KeyState): void {
    this.deps.clock.clearTimeout(state.timer);
    state.timer = undefined;
    if (state.held.entries.length > 0) state.ready.push(this.takeHeld(state));
  }

  /** `'latest'`: cancels the run going, once; its messages go before the newer ones. */
  private cancel(state: KeyState): void {
    const running = state.running;
    if (!running || running.cancel) return;
    running.cancel = true;
    this.deps.count('cancelled', 1);
    running.run?.abandon(new RunCancelledError(running.run.handler));
  }

  /** Starts the next ready batch of the key, unless one runs. */
  private pump(key: string, state: KeyState): void {
    if (this.closed || state.running) return;
    const batch = state.ready.shift();
    if (!batch) {
      if (state.held.entries.length === 0 && state.timer === undefined) this.keys.delete(key);
      return;
    }
    const running: NonNullable<KeyState['running']> = { batch, cancel: false };
    state.running = running;
    void this.deps
      .schedule(() => this.runBatch(running))
      // A run that released its worker (a streamed answer) has not ended: the next batch waits for it.
      .then(() => this.ended(running))
      .then(() => {
        state.running = undefined;
        if (running.cancel) {
          // Superseded: its messages are skipped by the newest one's run, and released with it.
          this.released(state.held.prepend(batch));
        } else {
          for (const entry of batch.entries) entry.release();
        }
        // What arrived during the run (`'latest'`, `'collapse'`) runs next, as one batch.
        if (this.policy.mode !== 'debounce' && this.policy.mode !== 'drop' && state.held.entries.length > 0) {
          state.ready.push(this.takeHeld(state));
        }
        if (this.closed) this.abandonHeld(state);
        else this.pump(key, state);
      });
  }

  private async runBatch(running: NonNullable<KeyState['running']>): Promise<void> {
    const batch = running.batch.entries;
    const newest = batch[batch.length - 1] as Entry;
    const first = batch[0] as Entry;
    const outcome: DispatchOutcome = { failed: false, abandoned: false };
    const meta: EventMeta = {
      id: newest.meta.id,
      origin: newest.meta.origin,
      // `'latest'` runs again for a newer message while the cancelled run may have written: its keys
      // are the newest message's, so its answer is not taken for the cancelled one's.
      keyBasis: this.policy.mode === 'latest' ? newest.meta.keyBasis : first.meta.keyBasis,
      replayed: batch.some((entry) => entry.meta.replayed),
      trace: newest.meta.trace,
      outcome,
    };
    const skipped = batch.slice(0, -1).map((entry) => entry.message);
    running.outcome = outcome;
    await newest.launch({
      meta,
      skipped,
      skippedCount: skipped.length + running.batch.over,
      opened: (run) => {
        running.run = run;
        if (running.cancel) run.abandon(new RunCancelledError(run.handler));
      },
    });
  }

  /** Waits for the batch's run to end (past its worker), then counts it and marks its events. */
  private async ended(running: NonNullable<KeyState['running']>): Promise<void> {
    const { batch, outcome } = running;
    if (outcome) await releasedOutcome(outcome);
    if (running.cancel || !outcome) return;
    if (batch.entries.length > 1) this.deps.count('skipped', batch.entries.length - 1);
    for (const entry of batch.entries) {
      if (!entry.meta.outcome) continue;
      entry.meta.outcome.failed ||= outcome.failed;
      entry.meta.outcome.abandoned ||= outcome.abandoned;
    }
  }
}
