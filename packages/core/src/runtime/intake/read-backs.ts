import type { Logger, Message } from '@boardbot/protocol';
import { LIMITS } from '@boardbot/protocol/runtime';
import type { Clock } from '../../kernel/clock.js';
import type { BotEvent } from '../../kernel/event.js';
import type { BotRest } from '../../kernel/ports.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import { readBack } from './backfill.js';
import type { AsideMessage, BoardShares } from './board-shares.js';

/** How long after a failed read-back the board's set-aside messages are read again (ms). */
const RETRY_MS = 5_000;

/** What the read-backs work with. */
export interface ReadBacksDeps {
  rest: BotRest;
  log: Logger;
  clock: Clock;
  telemetry: Telemetry;
  /** Runs a read-back (as a worker of the bot's queue, so that `idle()` and the stop wait for it). */
  schedule(task: () => Promise<void>): Promise<void>;
}

/** What a read-back does with what it found, through the intake and its sink. */
export interface ReadBackTarget {
  /** Registers an event set aside (the resume point stays before it); false when it needs no room. */
  setAside(event: BotEvent): boolean;
  /** A message set aside and deleted since: done. */
  gone(messageId: string): void;
  /** Takes a message read back, as a new message of its board. */
  take(message: Message): void;
  /** Whether the intake closed (what a read-back brings then is left for the next process). */
  closed(): boolean;
}

/**
 * Sets messages aside for boards over their share of the intake ({@link BoardShares}) and reads them
 * back over REST once their board has room, oldest first, as the backfill after a gap does. A
 * read-back that fails is tried again after a while; a message deleted meanwhile is done.
 */
export class ReadBacks {
  private readonly retries = new Set<unknown>();
  private readonly log: Logger;

  /**
   * @param shares - the boards' shares
   * @param deps - REST client, logger, clock, metrics
   * @param target - the intake's side
   */
  constructor(
    private readonly shares: BoardShares,
    private readonly deps: ReadBacksDeps,
    private readonly target: ReadBackTarget,
  ) {
    this.log = deps.log.child({ component: 'intake' });
  }

  /**
   * Sets a new message aside, behind its board's others.
   * @param event - its event (its id holds the resume point)
   * @param message - the message
   * @returns false when no handler would run for it: it needs no room, take it now
   */
  setAside(event: BotEvent, message: Message): boolean {
    if (!this.target.setAside(event)) return false;
    const first = this.shares.setAside(message.board_id, { id: message.id, seq: message.seq });
    this.deps.telemetry.metrics?.intakeSetAside?.(1);
    if (first) {
      this.log.warn(
        { board_id: message.board_id, share: this.shares.share, from_seq: message.seq },
        'board over its share of the intake: its new messages are set aside and read back once it has room',
      );
    }
    return true;
  }

  /**
   * Reads back the board's next set-aside messages, if it has room, and takes them; again while it
   * still has room and messages set aside.
   * @param boardId - the board
   */
  read(boardId: string): Promise<void> {
    const next = this.shares.next(boardId, LIMITS.listMax);
    if (!next) return Promise.resolve();
    return this.deps.schedule(() => this.readNext(boardId, next));
  }

  private async readNext(boardId: string, next: readonly AsideMessage[]): Promise<void> {
    const first = next[0]?.seq ?? 0;
    const last = next[next.length - 1]?.seq ?? 0;
    let found: Message[];
    try {
      found = await readBack(
        this.deps.rest,
        boardId,
        { seen: (m) => m.seq < first, limit: Number.POSITIVE_INFINITY, before: last + 1 },
        { logger: this.log },
      );
    } catch (error) {
      this.shares.failed(boardId);
      if (this.target.closed()) return;
      this.log.error({ err: error, board_id: boardId }, 'reading set-aside messages back failed: trying again');
      const timer = this.deps.clock.setTimeout(() => {
        this.retries.delete(timer);
        void this.read(boardId);
      }, RETRY_MS);
      this.retries.add(timer);
      return;
    }
    if (this.target.closed()) return;
    const bySeq = new Map(found.map((m) => [m.seq, m]));
    if (this.shares.read(boardId, next.length)) {
      this.log.info({ board_id: boardId, to_seq: last }, 'board caught up: its set-aside messages were read back');
    }
    for (const aside of next) {
      const message = bySeq.get(aside.seq);
      if (message?.id === aside.id) this.target.take(message);
      else this.target.gone(aside.id);
    }
    // Taken quickly (no handler ran, or a fast one): the board may have room for more already.
    void this.read(boardId);
  }

  /** Tries nothing again (the intake closed): what is set aside stays before the resume point. */
  close(): void {
    for (const timer of this.retries) this.deps.clock.clearTimeout(timer);
    this.retries.clear();
  }
}
