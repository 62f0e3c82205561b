import type { Clock } from '@boardbot/core';
import type { Redis } from 'ioredis';
import { BlockingReads, type EntryWaits } from './blocking-reads.js';

/** A consumer's wait, while it is part of the shared read. */
interface Waiter {
  streams: readonly { key: string; cursor: string }[];
  /** When it ends with nothing (epoch ms, by the clock). */
  deadline: number;
  settle(heads: Map<string, string | undefined> | null): void;
  fail(error: unknown): void;
}

/**
 * One blocking read for the consumers of every app of a host: each consumer's wait joins one
 * `XREAD BLOCK` over the streams of all the waits, on one connection, instead of a connection and a
 * blocked read per app. A reply ends the waits whose streams got an entry; the others wait on, in the
 * next read, until their own time passes. A wait that comes while a read blocks cuts it short
 * (`CLIENT UNBLOCK`), so that the next read includes it; an `XREAD` takes nothing from a consumer
 * group, so a read cut short loses nothing.
 */
export class SharedReads {
  private readonly reads: BlockingReads;
  private readonly waiters = new Set<Waiter>();
  /** The waits the read in flight covers. */
  private reading = new Set<Waiter>();
  private loop: Promise<void> | undefined;
  private cutting: Promise<void> | undefined;

  /**
   * @param blocking - the host's connection for blocking reads
   * @param control - another connection, free to cut a blocked read short
   * @param clock - the clock every wait is timed by
   */
  constructor(
    blocking: Redis,
    control: Redis,
    private readonly clock: Clock,
  ) {
    this.reads = new BlockingReads(blocking, control, clock);
  }

  /** How many consumers wait right now (for tests and logs). */
  get waiting(): number {
    return this.waiters.size;
  }

  /** A consumer's way into the shared read: its waits, and what ends them. */
  waits(): EntryWaits {
    let mine: Waiter | undefined;
    return {
      wait: (streams, ms) =>
        new Promise((resolve, reject) => {
          const waiter: Waiter = {
            streams,
            deadline: this.clock.now() + ms,
            settle: (heads) => {
              this.waiters.delete(waiter);
              if (mine === waiter) mine = undefined;
              resolve(heads);
            },
            fail: (error) => {
              this.waiters.delete(waiter);
              if (mine === waiter) mine = undefined;
              reject(error);
            },
          };
          mine = waiter;
          this.waiters.add(waiter);
          this.kick();
        }),
      // Only this consumer's wait ends: the read goes on for the others.
      interrupt: async () => mine?.settle(null),
    };
  }

  /** Starts the read, or cuts the one in flight short when it does not cover every wait. */
  private kick(): void {
    if (!this.loop) {
      this.loop = this.run().finally(() => {
        this.loop = undefined;
        if (this.waiters.size > 0) this.kick();
      });
      return;
    }
    if ([...this.waiters].some((w) => !this.reading.has(w))) {
      this.cutting ??= this.reads.interrupt().finally(() => (this.cutting = undefined));
    }
  }

  private async run(): Promise<void> {
    while (this.waiters.size > 0) {
      const round = [...this.waiters];
      this.reading = new Set(round);
      const now = this.clock.now();
      const block = Math.max(1, Math.min(...round.map((w) => w.deadline)) - now);
      const streams = round.flatMap((w) => w.streams);
      let heads: Map<string, string | undefined> | null;
      try {
        heads = await this.reads.wait(streams, block);
      } catch (error) {
        for (const w of round) if (this.waiters.has(w)) w.fail(error);
        continue;
      } finally {
        this.reading = new Set();
      }
      const after = this.clock.now();
      for (const w of round) {
        if (!this.waiters.has(w)) continue;
        const got = heads && w.streams.filter((s) => heads.has(s.key));
        if (got && got.length > 0) w.settle(new Map(got.map((s) => [s.key, heads?.get(s.key)])));
        else if (w.deadline <= after) w.settle(null);
      }
    }
  }
}
