import type { Redis } from 'ioredis';
import { sendNow } from '../connection.js';

/** A run of an entry being counted in Redis. */
export interface RunCount {
  /**
   * Whether the count was written to the connection's socket before {@link countRun} returned (the
   * connection was up): from then on, the run counts even if this process dies at once.
   */
  written: boolean;
  /** The entry's run count, this run included; undefined when Redis could not be reached. */
  count: Promise<number | undefined>;
}

/**
 * Counts one run of a stream entry (`HINCRBY <attempts> <entry id> 1`), sent at once ({@link sendNow}):
 * on a connection that is up, it is in the kernel's socket buffer when this returns, so a handler
 * started right after it cannot end the process (SIGKILL, a crash, an exit) before Redis gets the count.
 *
 * @param client - the connection
 * @param attempts - the hash of run counts
 * @param id - the entry id
 */
export function countRun(client: Redis, attempts: string, id: string): RunCount {
  const written = client.status === 'ready';
  const count = sendNow(client, 'hincrby', [attempts, id, 1]).then(
    (n) => Number(n),
    () => undefined,
  );
  return { written, count };
}
