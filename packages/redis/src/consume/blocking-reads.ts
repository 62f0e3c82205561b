import type { Clock } from '@boardbot/core';
import type { Redis } from 'ioredis';
import { sleep } from '../connection.js';
import { streamHeads } from './streams.js';

/**
 * How a consumer waits for new entries in its partitions: a replica of one bot has a connection of
 * its own for it ({@link BlockingReads}); the apps of a host share one read (`SharedReads`).
 */
export interface EntryWaits {
  /**
   * Waits up to `ms` for an entry after `cursor` in any of `streams`.
   * @returns each stream that got one, with the last entry id it returned; null when none did
   */
  wait(
    streams: readonly { key: string; cursor: string }[],
    ms: number,
  ): Promise<Map<string, string | undefined> | null>;
  /** Ends the wait in flight, if any, as if its time had passed. */
  interrupt(): Promise<void>;
}

/**
 * The blocking reads of one connection, which a stop can end at once. Redis holds a blocked `XREAD`
 * for up to its `BLOCK` time, and the connection with it, so a stop would wait that long (the whole
 * `blockMs`); `CLIENT UNBLOCK` sent over another connection ends it as if it had timed out. An
 * `XREAD` takes nothing from a consumer group, so ending one early loses nothing.
 */
export class BlockingReads implements EntryWaits {
  /** The blocking connection's client id, learnt before its first read after each (re)connect. */
  private id: string | undefined;
  private inFlight = 0;

  /**
   * @param blocking - the connection the reads block on
   * @param control - another connection, free to send `CLIENT UNBLOCK` while a read blocks
   * @param clock - the bot's clock
   */
  constructor(
    private readonly blocking: Redis,
    private readonly control: Redis,
    private readonly clock: Clock,
  ) {
    // A reconnected connection is a new client, with a new id.
    blocking.on('ready', () => {
      this.id = undefined;
    });
  }

  /** {@inheritDoc EntryWaits.wait} */
  async wait(
    streams: readonly { key: string; cursor: string }[],
    ms: number,
  ): Promise<Map<string, string | undefined> | null> {
    const keys = streams.map((s) => s.key);
    const cursors = streams.map((s) => s.cursor);
    this.inFlight++;
    try {
      this.id ??= String(await this.blocking.client('ID'));
      const args = ['COUNT', '1', 'BLOCK', String(ms), 'STREAMS', ...keys, ...cursors];
      const reply = (await this.blocking.call('XREAD', ...args)) as unknown[] | null;
      return reply ? streamHeads(reply) : null;
    } finally {
      this.inFlight--;
    }
  }

  /**
   * Ends the read in flight, if any: it answers as if its time had passed. A read still on its way
   * to Redis is not blocked yet, so `CLIENT UNBLOCK` finds nothing; it is sent again until it ends
   * one, or the read ended by itself (a few milliseconds at most: Redis blocks the read as soon as
   * it gets it).
   */
  async interrupt(): Promise<void> {
    while (this.inFlight > 0) {
      if (this.id !== undefined) {
        const ended = await this.control.call('CLIENT', 'UNBLOCK', this.id).catch(() => 0);
        if (ended === 1) return;
      }
      await sleep(this.clock, 1);
    }
  }
}
