import type { Redis } from 'ioredis';

/**
 * Redis's own account of its slow moments (the latency monitor): every command, AOF write or fsync,
 * expire cycle and the like that took at least `thresholdMs` in Redis's event loop. What it does not
 * see — Redis waiting for a core, the loopback, the client's loop — is what a hop's tail is made of
 * when it stays empty.
 */
export interface LatencyMonitor {
  /** Forgets what was recorded so far (call it when the measured rounds start). */
  reset(): Promise<void>;
  /**
   * Each event kind seen since the reset: in how many seconds it spiked, in how many of them by 2 ms
   * or more, and its largest spike, in ms. Redis times these events with a millisecond clock, so an
   * event of a few microseconds that straddles a millisecond's end reads 1 ms: only 2 ms and more
   * is surely a spike.
   */
  spikes(): Promise<{ event: string; count: number; real: number; maxMs: number }[]>;
}

/**
 * Turns Redis's latency monitor on for `client`'s server.
 * @param thresholdMs - the smallest spike recorded (Redis's resolution is 1 ms)
 */
export async function latencyMonitor(client: Redis, thresholdMs = 1): Promise<LatencyMonitor> {
  await client.config('SET', 'latency-monitor-threshold', String(thresholdMs));
  return {
    reset: async () => {
      await client.call('LATENCY', 'RESET');
    },
    async spikes() {
      const latest = (await client.call('LATENCY', 'LATEST')) as [string, number, number, number][];
      return Promise.all(
        latest.map(async ([event]) => {
          // HISTORY keeps one sample a second (the largest of that second), the last 160.
          const history = (await client.call('LATENCY', 'HISTORY', event)) as [number, number][];
          const ms = history.map(([, spike]) => spike);
          return { event, count: ms.length, real: ms.filter((x) => x >= 2).length, maxMs: Math.max(...ms) };
        }),
      );
    },
  };
}

/** `TIME` in a script's reply, as milliseconds since the epoch (the clock `performance.timeOrigin` uses). */
export const redisTimeMs = ([seconds, micros]: [string, string]) => Number(seconds) * 1000 + Number(micros) / 1000;

/**
 * Splits the slowest round trips of a round into the leg to Redis (sent until the script ran) and the
 * leg back (until this loop saw the reply), each as its excess over the round's median for that leg,
 * so that the offset between the two clocks cancels. Returns how many of them were late mostly on
 * the way there (Redis or the request waited) and how many on the way back (this process waited).
 */
export function lateLegs(
  trips: { there: number; back: number; ms: number }[],
  slowest: number,
): { there: number; back: number } {
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const there = mid(trips.map((t) => t.there));
  const back = mid(trips.map((t) => t.back));
  const late = [...trips].sort((a, b) => b.ms - a.ms).slice(0, slowest);
  const onTheWay = late.filter((t) => t.there - there >= t.back - back).length;
  return { there: onTheWay, back: late.length - onTheWay };
}
