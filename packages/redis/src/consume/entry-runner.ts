import { type BotEvent, releasedOutcome, type SourceHost } from '@boardbot/core';
import { backoffDelay } from '@boardbot/protocol/http';
import { type Connected, persist, sleep } from '../connection.js';
import { sortKeyOf } from '../feed/entry-id.js';
import { GROUP } from '../keys.js';
import { ACK, DEAD_LETTER } from '../scripts/feed-scripts.js';
import type { PendingEntry } from './pending.js';
import { countRun } from './run-count.js';

/** The partition an entry came from. */
export interface RunPart {
  index: number;
  key: string;
}

/** How many times an entry runs, and how long the dead-letter stream is kept. */
export interface RunBounds {
  maxDeliveries: number;
  deadLetterMaxLength: number;
  deadLetterRetentionMs: number;
}

/** How long an acknowledgement is retried while Redis is unreachable, before the entry is left pending. */
const ACK_PERSIST_MS = 30_000;

/**
 * Runs the entries a consumer read, one at a time per ordering key (the consumer queues them): counts
 * each run in Redis, dispatches the event to the bot, acknowledges it once its handlers finished, runs
 * a failed one again (holding its key) and dead-letters it after `maxDeliveries` runs.
 */
export class EntryRunner {
  /** Acknowledgements sent and not answered yet. */
  private acking = 0;

  /**
   * @param c - the replica's connection
   * @param host - the bot
   * @param bounds - runs per entry, dead-letter stream length
   * @param reading - whether the replica still takes work (false once it pauses to stop)
   */
  constructor(
    private readonly c: Connected,
    private readonly host: SourceHost,
    private readonly options: RunBounds,
    private readonly reading: () => boolean = () => true,
  ) {}

  /**
   * Runs one entry until it succeeds, is dead-lettered, or the bot abandons it at shutdown. Each run
   * is counted in Redis before it starts (its count written to the socket), so runs cut short by a
   * dying replica count too, and an entry merely claimed by a replica that died before running it
   * does not.
   * @param part - its partition
   * @param entry - the entry
   * @param event - its event
   * @param claimed - whether it was claimed from a previous owner (a replay) rather than read
   * @param holds - whether this replica still holds the partition
   * @param free - frees the entry's place in its board's order while a burst policy holds it; the
   *   entry stays pending (and running, for the sweep) until the burst ran
   * @param owned - whether this replica still owns the entry's event, by its lease's deadline: a
   *   streamed answer checks it before each write
   */
  async run(
    part: RunPart,
    entry: PendingEntry,
    event: BotEvent,
    claimed: boolean,
    holds: () => boolean,
    free: () => void = () => {},
    owned: () => boolean = holds,
  ): Promise<void> {
    const { maxDeliveries } = this.options;
    let local = 0;
    for (;;) {
      // The partition's lease was lost while this entry waited: its next owner runs it.
      if (!holds()) return;
      local++;
      const run = countRun(this.c.client, this.c.keys.attempts, entry.id);
      // The first run of an entry just read needs no reply: XREADGROUP hands an entry out once, so
      // its count is 1, below any bound. Waiting for it would add a round trip to every event; the
      // count is on its way to Redis already, which is what makes a run cut short count.
      const early = !claimed && local === 1 && run.written;
      let attempt = early ? 1 : ((await run.count) ?? (await this.recount(entry.id, local)));
      if (attempt > maxDeliveries) {
        const reason = `its handlers did not finish in ${maxDeliveries} runs (its replicas stopped while running them)`;
        await this.deadLetter(part, entry.id, entry.payload, attempt - 1, reason);
        return;
      }
      // The bot adds what it knows itself: an event created before this process started.
      const outcome = await this.host.dispatch(event, claimed || attempt > 1, traceOf(entry), owned);
      if (outcome.held?.length) {
        free();
        await releasedOutcome(outcome);
      }
      if (early) attempt = (await run.count) ?? (await this.recount(entry.id, local));
      // Not finished: left pending, for the next owner of the partition.
      if (outcome.abandoned) return;
      if (!outcome.failed) {
        await this.settle(part, entry.id, event);
        return;
      }
      if (attempt >= maxDeliveries) {
        await this.deadLetter(part, entry.id, entry.payload, attempt, `its handlers failed ${attempt} times`);
        return;
      }
      // The replica stops (its bot closing, its REST client with it): a failed event is left pending
      // for the partition's next owner rather than run again here, against a bot that cannot answer.
      if (!this.reading()) return;
      this.c.log.warn(
        { partition: part.index, entry: entry.id, attempt, max_deliveries: maxDeliveries },
        'handler failed: the event is delivered again (its board waits)',
      );
      // 200 ms doubling up to 2 s: the event's board waits, so no jitter stretches it.
      await sleep(this.c.clock, backoffDelay({ attempt, baseMs: 200, maxMs: 2000, jitter: 0, random: 0 }));
    }
  }

  /**
   * The count of a run whose count did not reach Redis, counting it again while Redis is unreachable
   * (until the acknowledgement's bound), or `local` (the runs of this replica) if Redis stayed out of
   * reach.
   */
  private async recount(id: string, local: number): Promise<number> {
    let attempt: number | undefined;
    await persist(
      this.c.clock,
      async () => {
        attempt = await countRun(this.c.client, this.c.keys.attempts, id).count;
        if (attempt === undefined) throw new Error('the run was not counted');
      },
      ACK_PERSIST_MS,
    );
    return attempt ?? local;
  }

  private async settle(part: RunPart, id: string, event: BotEvent): Promise<void> {
    const { keys, client } = this.c;
    const keyList = [part.key, keys.inflight, keys.boards, keys.meta, keys.attempts];
    const args = [GROUP, id, sortKeyOf(id), ...boardMark(event)];
    // The only acknowledgement in flight (live traffic) is sent at once: an auto-pipeline of one
    // command costs more than its write. Those that end while others are on their way share a write.
    const now = this.acking === 0;
    const ack = () => ACK.run(client, keyList, args, { now });
    this.acking++;
    let done: boolean;
    try {
      done = await persist(this.c.clock, ack, ACK_PERSIST_MS);
    } finally {
      this.acking--;
    }
    if (!done) this.c.log.error({ entry: id }, 'could not acknowledge an event: it stays pending and runs again later');
  }

  /**
   * Moves an entry to the dead-letter stream and acknowledges it (logged), so its board moves on.
   * @param part - its partition
   * @param id - its entry id
   * @param payload - the event as appended
   * @param deliveries - how many times it ran
   * @param reason - why, for the log and the dead letter
   */
  async deadLetter(
    part: RunPart,
    id: string,
    payload: string | undefined,
    deliveries: number,
    reason: string,
  ): Promise<void> {
    const { keys, client } = this.c;
    this.c.log.error(
      { partition: part.index, entry: id, deliveries, reason },
      'event moved to the dead-letter stream: its board moves on',
    );
    let mark: [board: string, seq: number] = ['', 0];
    try {
      mark = boardMark(JSON.parse(payload ?? '') as BotEvent);
    } catch {
      // An unreadable payload moves no board's mark.
    }
    await persist(
      this.c.clock,
      () =>
        DEAD_LETTER.run(
          client,
          [part.key, keys.inflight, keys.boards, keys.meta, keys.attempts, keys.dead],
          [
            GROUP,
            id,
            sortKeyOf(id),
            ...mark,
            part.index,
            deliveries,
            reason,
            payload ?? '',
            this.options.deadLetterMaxLength,
            this.options.deadLetterRetentionMs,
          ],
        ),
      ACK_PERSIST_MS,
    );
  }
}

/** The board and `seq` a finished event moves the mark of: a message's; `''` and 0 for any other event. */
function boardMark(event: BotEvent): [board: string, seq: number] {
  if (event.unknown || event.name !== 'message.create') return ['', 0];
  return [event.data.message.board_id, event.data.message.seq];
}

/** The trace headers an entry was appended with, or undefined (untraced, or unreadable: a new trace). */
function traceOf(entry: PendingEntry): Record<string, string> | undefined {
  if (!entry.trace) return undefined;
  try {
    return JSON.parse(entry.trace) as Record<string, string>;
  } catch {
    return undefined;
  }
}
