import { type GatewayFetch, nodeHttpFetch } from '@boardbot/gateway';
import { readRateLimitHeaders, type SharedRateLimit } from '@boardbot/rest';
import type { Clock } from '../../kernel/clock.js';

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'date'];

/**
 * A fetch for the gateway that opens its stream only with a slot of the shared rate limit: the
 * platform counts `GET /gateway` against the app token's window like any call, so a replica that takes
 * over the gateway while the others spend the window must wait its turn rather than draw a 429.
 *
 * @param limit - the app token's shared bucket
 * @param clock - the bot's clock: it times the waits for a slot and reads the answer's reset
 * @param base - the fetch that opens the stream @defaultValue `nodeHttpFetch`, the gateway client's own
 * default: Node's global `fetch` would load a second copy of undici's web stack for this one request
 * and keep a resource-timing entry of every stream in the process's performance timeline (up to 250,
 * never cleared), one more at each gateway a replica opens, app handovers included
 */
export function rateLimitedFetch(
  limit: SharedRateLimit,
  clock: Clock,
  base: GatewayFetch = nodeHttpFetch,
): GatewayFetch {
  return async (url, init) => {
    const slot = await reserveOne(limit, clock, init.signal);
    let response: Awaited<ReturnType<GatewayFetch>>;
    try {
      response = await base(url, init);
    } catch (error) {
      limit.settle(slot, null).catch(() => {});
      throw error;
    }
    const headers = Object.fromEntries(
      RATE_LIMIT_HEADERS.map((name) => [name, response.headers.get(name) ?? undefined]),
    );
    limit.settle(slot, readRateLimitHeaders(headers, clock.now())).catch(() => {});
    return response;
  };
}

async function reserveOne(limit: SharedRateLimit, clock: Clock, signal: AbortSignal): Promise<string> {
  for (;;) {
    signal.throwIfAborted();
    const reservation = await limit.reserve(1);
    const slot = reservation.slots[0];
    if (slot !== undefined) return slot;
    await new Promise<void>((resolve, reject) => {
      const aborted = () => {
        clock.clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = clock.setTimeout(
        () => {
          signal.removeEventListener('abort', aborted);
          resolve();
        },
        Math.max(1, reservation.waitMs),
      );
      signal.addEventListener('abort', aborted, { once: true });
    });
  }
}
