import type { Clock } from '@boardbot/core';
import type { Redis } from 'ioredis';
import { sleep } from '../connection.js';

/**
 * The blocking reads of one connection, which a stop can end at once. Redis holds a blocked `XREAD`
 * for up to its `BLOCK` time, and the connection with it, so a stop would wait that long (the whole
 * `blockMs`); `CLIENT UNBLOCK` sent over another connection ends it as if it had timed out. An
 * `XREAD` takes nothing from a consumer group, so ending one early loses nothing.
 */
export class BlockingReads {
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

  /** `XREAD` with `args` (`BLOCK` among them) on the blocking connection. */
  async xread(args: string[]): Promise<unknown> {
    this.inFlight++;
    try {
      this.id ??= String(await this.blocking.client('ID'));
      return await this.blocking.call('XREAD', ...args);
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
