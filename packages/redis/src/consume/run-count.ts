import { Command, type Redis } from 'ioredis';

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
 * Counts one run of a stream entry (`HINCRBY <attempts> <entry id> 1`). The command goes around
 * auto-pipelining, which would hold it until the event loop's check phase: on a connection that is
 * up, it is in the kernel's socket buffer when this returns, so a handler started right after it
 * cannot end the process (SIGKILL, a crash, an exit) before Redis gets the count.
 *
 * @param client - the connection
 * @param attempts - the hash of run counts
 * @param id - the entry id
 */
export function countRun(client: Redis, attempts: string, id: string): RunCount {
  const written = client.status === 'ready';
  const { keyPrefix } = client.options;
  const command = new Command('hincrby', [attempts, id, '1'], keyPrefix === undefined ? {} : { keyPrefix });
  const count = (client.sendCommand(command) as Promise<unknown>).then(
    (n) => Number(n),
    () => undefined,
  );
  return { written, count };
}
