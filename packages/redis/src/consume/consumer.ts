import type { SourceHost } from '@boardbot/core';
import { type Connected, redisErrorCode, sleep } from '../connection.js';
import { sortKeyOf } from '../feed/entry-id.js';
import { GROUP } from '../keys.js';
import { READ } from '../scripts/feed-scripts.js';
import type { EntryWaits } from './blocking-reads.js';
import { decodeEntry, isMalformed } from './decode-entry.js';
import { EntryRunner } from './entry-runner.js';
import { pendingEntries } from './pending.js';
import { type ReadAlong, type ReadsAlong, type StreamEntry, type TakenEntry, takenEntry } from './read-along.js';
import { ensureGroup, trim } from './streams.js';

/** A partition this replica holds the lease of. */
interface Part {
  index: number;
  key: string;
  /** `claiming`: taking over what a previous owner left; `active`: read; `draining`: being released. */
  status: 'claiming' | 'active' | 'draining';
  /** Entries read and not finished, by id. */
  running: Set<string>;
  /** The lease value reads are fenced with. */
  lease: string;
  /**
   * When the lease expires unless renewed (epoch ms, by the replica's clock, measured from before the
   * call that took or renewed it, so never later than Redis's own expiry).
   */
  until: number;
  /** The last entry id seen in the stream: a wait for new entries waits for what comes after it. */
  cursor: string;
  /** The cursor's sort key, kept beside it: every entry delivered is compared with it. */
  cursorKey: string;
  /** Resolves the drain once nothing of the partition runs or is being read. */
  drained?: () => void;
  /** Whether the read loop's own read of the partition is in flight (no read along starts then). */
  fetching: boolean;
  /** Reads along with appends in flight. */
  along: number;
  /** What the reads along in flight took, delivered in id order once the last of them is back. */
  taken: TakenEntry[];
  /** Read-loop reads waiting for the reads along in flight to be back. */
  waiting: (() => void)[];
}

/** What the consumer is set to. */
export interface ConsumerOptions {
  maxDeliveries: number;
  prefetch: number;
  blockMs: number;
  deadLetterMaxLength: number;
  deadLetterRetentionMs: number;
  leaseMs: number;
}

/**
 * Consumes the partitions this replica holds, through the consumer group: reads new entries (one
 * blocking read over all its active partitions, or the reader's appends when this replica reads the
 * gateway) and queues each on the bot's dispatch queue under its ordering key, where an
 * {@link EntryRunner} runs, acknowledges or dead-letters it. A partition taken over first runs what
 * its previous owner left pending (delivered, not acknowledged), in order, before anything new.
 */
export class Consumer implements ReadsAlong {
  private readonly parts = new Map<number, Part>();
  private running = 0;
  private reading = false;
  private readingNow = new Set<Part>();
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /**
   * What the loop waits for: room for more entries, an append of this replica's reader, or the bot's
   * intake bound to drain.
   */
  private waitingFor: 'room' | 'feed' | 'gate' | undefined;
  /** Appends of this replica's reader to its partitions that no read along took, by partition key. */
  private fed = new Map<string, string | undefined>();
  private readFailures = 0;
  /**
   * The partitions to read next, each with the entry the last wait woke for (undefined: read it
   * anyway); undefined: all of them.
   */
  private hint: Map<string, string | undefined> | undefined;
  /** Reads along with appends in flight, over all partitions (each may take an entry). */
  private along = 0;
  /** Entries taken and not queued yet: by reads along (until their partition's settle), by the loop's reads. */
  private unqueued = 0;
  private readonly runner: EntryRunner;

  /**
   * @param c - the replica's connection
   * @param waits - how it waits for new entries (a connection of its own, or the host's shared read)
   * @param host - the bot
   * @param options - bounds and timings
   * @param feeding - whether this replica's reader holds the reader lease, so appends every entry
   */
  constructor(
    private readonly c: Connected,
    private readonly waits: EntryWaits,
    private readonly host: SourceHost,
    private readonly options: ConsumerOptions,
    private readonly feeding: () => boolean = () => false,
  ) {
    this.runner = new EntryRunner(c, host, options, () => this.reading);
  }

  /** The partitions held (draining ones included). */
  get held(): number[] {
    return [...this.parts.keys()];
  }

  /** Whether a partition is being released. */
  get draining(): boolean {
    return [...this.parts.values()].some((p) => p.status === 'draining');
  }

  /** The partitions held and not draining, with how many of their entries run. */
  get active(): { index: number; running: number }[] {
    return [...this.parts.values()]
      .filter((p) => p.status !== 'draining')
      .map((p) => ({ index: p.index, running: p.running.size }));
  }

  /** Starts reading. */
  start(): void {
    this.reading = true;
    this.loop ??= this.readLoop();
  }

  /** Stops reading new entries; entries already queued run to their end. */
  async pause(): Promise<void> {
    this.reading = false;
    this.wake?.();
    await this.waits.interrupt();
    await this.loop;
  }

  /**
   * Takes a partition over (its lease was just acquired): claims and queues what was left pending,
   * then reads it.
   * @param index - the partition
   * @param lease - the value its lease is held under (every read checks it)
   * @param until - when the lease expires unless renewed (see {@link Consumer.extend})
   */
  async adopt(index: number, lease: string, until: number): Promise<void> {
    const part: Part = {
      index,
      key: this.c.keys.partition(index),
      status: 'claiming',
      running: new Set(),
      lease,
      until,
      cursor: '0-0',
      cursorKey: sortKeyOf('0-0'),
      fetching: false,
      along: 0,
      taken: [],
      waiting: [],
    };
    this.parts.set(index, part);
    await ensureGroup(this.c.client, part.key);
    const claimed = await this.claim(part, 0);
    if (claimed > 0) {
      this.c.log.info({ partition: index, claimed }, 'partition taken over: running what its last owner left first');
    }
    if (part.status === 'claiming') part.status = 'active';
    this.wake?.();
  }

  /**
   * Releases a partition gracefully: stops reading it and resolves once none of its entries runs.
   * @param index - the partition
   */
  drain(index: number): Promise<void> {
    const part = this.parts.get(index);
    if (!part) return Promise.resolve();
    part.status = 'draining';
    const drained = new Promise<void>((resolve) => {
      part.drained = () => {
        this.forget(part);
        resolve();
      };
      this.checkDrained(part);
    });
    // The read loop holds the partition while it waits (for the reader's appends, or in a blocking
    // read) for up to `blockMs`: cut the wait short, so the release does not wait it out.
    this.wake?.();
    void this.waits.interrupt();
    return drained;
  }

  /**
   * Notes a partition's lease renewed: its entries' runs own their events until `until`.
   * @param index - the partition
   * @param until - when the lease expires unless renewed again (epoch ms, measured from before the renewal)
   */
  extend(index: number, until: number): void {
    const part = this.parts.get(index);
    if (part) part.until = Math.max(part.until, until);
  }

  /**
   * Forgets a partition whose lease was lost: no more reads; its running entries end on their own.
   * @param index - the partition
   */
  drop(index: number): void {
    const part = this.parts.get(index);
    if (part) this.forget(part);
  }

  /** {@inheritDoc ReadsAlong.readAlong} */
  readAlong(index: number): ReadAlong | undefined {
    const part = this.parts.get(index);
    // Only a partition read in order right now: not while its last owner's entries are claimed, nor
    // while the read loop's own read of it is in flight (deliveries of one partition never overlap).
    if (part?.status !== 'active' || part.fetching || !this.reading) return undefined;
    if (this.room() <= 0) return undefined;
    part.along++;
    this.along++;
    let taken = false;
    return {
      lease: part.lease,
      consumer: this.c.replicaId,
      take: (entries) => {
        if (taken) return;
        taken = true;
        part.along--;
        this.along--;
        if (entries) {
          part.taken.push(...entries);
          this.unqueued += entries.length;
        }
        if (part.along === 0) this.settleAlong(part);
      },
    };
  }

  /** {@inheritDoc ReadsAlong.appended} */
  appended(index: number, entryId: string, sortKey: string): void {
    const part = this.parts.get(index);
    if (!part || sortKey <= part.cursorKey) return;
    this.fed.set(part.key, entryId);
    if (this.waitingFor === 'feed') this.wake?.();
  }

  /** {@inheritDoc ReadsAlong.unfed} */
  unfed(): void {
    if (this.waitingFor === 'feed') this.wake?.();
  }

  /**
   * Delivers what the reads along of a partition took, once none is in flight: sorted by id, which
   * is the order Redis handed the entries out in, whatever order their replies were handled in.
   */
  private settleAlong(part: Part): void {
    const taken = part.taken.sort((a, b) => (sortKeyOf(a.id) < sortKeyOf(b.id) ? -1 : 1));
    part.taken = [];
    this.unqueued -= taken.length;
    this.accept(part, taken);
    for (const resume of part.waiting.splice(0)) resume();
    this.checkDrained(part);
  }

  /** Queues entries read from a partition, in order; the last one read is the partition's cursor. */
  private accept(part: Part, entries: readonly TakenEntry[]): void {
    for (const entry of entries) {
      // Every entry up to the one XREADGROUP last handed out was handed out: a wait starts after it.
      const key = sortKeyOf(entry.id);
      if (key > part.cursorKey) {
        part.cursor = entry.id;
        part.cursorKey = key;
      }
      this.deliver(part, entry, false);
    }
  }

  /**
   * Housekeeping of the held partitions, on each heartbeat: claims entries that stayed pending too
   * long under another consumer (a read that raced a lease change), and trims each stream below its
   * oldest unacknowledged entry.
   */
  async sweep(): Promise<void> {
    for (const part of this.parts.values()) {
      if (part.status !== 'active') continue;
      // Stuck entries wait for the next sweep while this replica's intake is full.
      if (!this.host.bound.gate()) await this.claim(part, 2 * this.options.leaseMs);
      await trim(this.c.client, part.key);
    }
  }

  private forget(part: Part): void {
    if (this.parts.get(part.index) === part) this.parts.delete(part.index);
    this.wake?.();
  }

  private checkDrained(part: Part): void {
    if (part.status === 'draining' && part.running.size === 0 && part.along === 0 && !this.readingNow.has(part))
      part.drained?.();
  }

  /** Claims the pending entries of a partition idle at least `minIdleMs`, in id order, and queues them. */
  private async claim(part: Part, minIdleMs: number): Promise<number> {
    let claimed = 0;
    const skip = (id: string) => part.running.has(id);
    for await (const entry of pendingEntries(this.c.client, part.key, minIdleMs, this.c.replicaId, skip)) {
      if (entry.payload === undefined) continue;
      this.deliver(part, entry, true);
      claimed++;
    }
    return claimed;
  }

  /**
   * Reads the active partitions: each through the fenced read script (no entry leaves a partition
   * whose lease this replica lost), then, when none had anything new, one blocking XREAD over all of
   * them that returns as soon as any gets an entry after the last one seen. While this replica's own
   * reader appends every entry, it waits for that reader instead: Redis then serves no blocked read
   * per event, and the event read along with its append does not wait behind that read's reply.
   */
  private async readLoop(): Promise<void> {
    while (this.reading) {
      const active = [...this.parts.values()].filter((p) => p.status === 'active');
      const room = this.room();
      if (active.length === 0 || room <= 0) {
        // Past the bot's intake bound: wait for it to drain to its low-water mark, not for one entry.
        const gate = this.host.bound.gate();
        await this.idle(this.options.blockMs, gate ? 'gate' : 'room', gate);
        continue;
      }
      // Only the partitions the last wait said have new entries (all of them after anything else).
      const hinted = this.hint;
      this.hint = undefined;
      // No more partitions than entries there is room for (each read takes at least one).
      const targets = (hinted ? active.filter((p) => hinted.has(p.key)) : active).slice(0, room);
      const woke = (part: Part) => hinted?.get(part.key);
      for (const part of active) this.readingNow.add(part);
      try {
        const count = Math.max(1, Math.min(100, Math.floor(room / Math.max(1, targets.length))));
        // One partition to read (the one the wait woke for): sent at once, as nothing would share its batch.
        const now = targets.length === 1;
        // What these reads may take counts as taken until they are back: a read along meanwhile has
        // only the room that is left.
        const asked = count * targets.length;
        this.unqueued += asked;
        const got = await Promise.all(targets.map((part) => this.readPart(part, count, now, woke(part)))).finally(
          () => (this.unqueued -= asked),
        );
        this.readFailures = 0;
        // A partition that gave fewer entries than asked had no more: the wait below covers it, from
        // the last entry read, without another read that would find it empty.
        const more = targets.filter((_, i) => (got[i] as number) >= count);
        if (more.length > 0) {
          this.hint = new Map(more.map((p) => [p.key, undefined]));
          continue;
        }
        if (this.feeding()) {
          if (this.fed.size === 0) await this.idle(this.options.blockMs, 'feed');
          // Nothing appended that was not read along: after a while, every partition is read anyway.
          this.hint = this.fed.size > 0 ? this.fed : undefined;
          this.fed = new Map();
          continue;
        }
        this.fed.clear();
        // A pause that came during the reads above found no read to cut short: none may start now.
        if (!this.reading) continue;
        const next = await this.waits.wait(
          active.map((p) => ({ key: p.key, cursor: p.cursor })),
          this.options.blockMs,
        );
        if (next) this.hint = next;
      } catch (error) {
        if (redisErrorCode(error) === 'NOGROUP') {
          // Redis lost the group (its data was lost): read the streams again from their start.
          for (const part of active) await ensureGroup(this.c.client, part.key).catch(() => {});
        } else {
          if (this.readFailures++ % 50 === 0)
            this.c.log.warn({ err: error }, 'reading the partitions failed: retrying');
          await sleep(this.c.clock, 200);
        }
      } finally {
        for (const part of active) {
          this.readingNow.delete(part);
          this.checkDrained(part);
        }
      }
    }
  }

  /**
   * One fenced read of a partition (sent at once when `now`); queues what it got. When the wait woke
   * for an entry that a read along with its append has taken since, there is nothing to read.
   * @returns how many entries it got
   */
  private async readPart(part: Part, count: number, now: boolean, woke: string | undefined): Promise<number> {
    part.fetching = true;
    let reply: ['lost'] | ['ok', StreamEntry[]] | ['empty', string];
    try {
      if (part.along > 0) await new Promise<void>((resolve) => part.waiting.push(resolve));
      if (woke !== undefined && sortKeyOf(woke) <= part.cursorKey) return 0;
      reply = (await READ.run(
        this.c.client,
        [this.c.keys.partitionLease(part.index), part.key],
        [part.lease, GROUP, this.c.replicaId, count],
        { now },
      )) as typeof reply;
    } finally {
      part.fetching = false;
    }
    if (reply[0] === 'lost') {
      this.c.log.warn({ partition: part.index }, 'partition lease lost: another replica takes the partition over');
      this.forget(part);
      return 0;
    }
    if (reply[0] === 'empty') {
      part.cursor = reply[1];
      part.cursorKey = sortKeyOf(reply[1]);
      return 0;
    }
    this.accept(part, reply[1].map(takenEntry));
    return reply[1].length;
  }

  /** Waits `ms`, or less: until a wake for `reason`, or until `gate` opens. */
  private idle(ms: number, reason: 'room' | 'feed' | 'gate', gate?: Promise<void>): Promise<void> {
    // Paused since the loop last looked: nothing to wait for.
    if (!this.reading) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const { clock } = this.c;
      const timer = clock.setTimeout(done, ms);
      const self = this;
      let over = false;
      function done() {
        // The gate may open after this wait ended: it must not end the next one.
        if (over) return;
        over = true;
        clock.clearTimeout(timer);
        self.wake = undefined;
        self.waitingFor = undefined;
        resolve();
      }
      this.wake = done;
      this.waitingFor = reason;
      void gate?.then(done);
    });
  }

  /**
   * How many more entries this replica may take: under its `prefetch`, and under the bot's intake
   * bound (none while that is paused, until it drains to its low-water mark).
   */
  private room(): number {
    const bound = this.host.bound;
    const taking = this.along + this.unqueued;
    const intake = bound.gate() ? 0 : bound.high - bound.count - taking;
    return Math.min(this.options.prefetch - this.running - taking, intake);
  }

  private deliver(part: Part, entry: TakenEntry, claimed: boolean): void {
    // An entry read along with its append carries the reader's event (checked by the gateway); any
    // other is checked here, so that nothing malformed reaches a handler.
    const event = entry.event ?? decodeEntry(entry.payload);
    if (isMalformed(event)) {
      void this.runner.deadLetter(part, entry.id, entry.payload, 1, event.reason);
      return;
    }
    part.running.add(entry.id);
    this.running++;
    // The queue's slot is freed early when a burst holds the message (`free`); the entry stays running.
    this.host.enqueue(
      this.host.orderingKey(event),
      () =>
        new Promise<void>((free) => {
          const holds = () => this.parts.get(part.index) === part;
          // A run's writes check the lease's deadline by the clock too: a replica paused past its lease
          // (SIGSTOP, a long GC) wakes with its timers late, before the heartbeat finds the lease lost.
          const owned = () => holds() && this.c.clock.now() < part.until;
          void this.runner.run(part, entry, event, claimed, holds, free, owned).finally(() => {
            free();
            part.running.delete(entry.id);
            this.running--;
            this.checkDrained(part);
            // Room for another entry: the loop may wait for it (not for the reader's next append).
            if (this.waitingFor === 'room') this.wake?.();
          });
        }),
    );
  }
}
