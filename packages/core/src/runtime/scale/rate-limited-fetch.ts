import { setTimeout as sleep } from 'node:timers/promises';
import type { GatewayFetch } from '@boardbot/gateway';
import { readRateLimitHeaders, type SharedRateLimit } from '@boardbot/rest';

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'date'];

/**
 * A fetch for the gateway that opens its stream only with a slot of the shared rate limit: the
 * platform counts `GET /gateway` against the app token's window like any call, so a replica that takes
 * over the gateway while the others spend the window must wait its turn rather than draw a 429.
 *
 * @param limit - the app token's shared bucket
 * @param base - the fetch that opens the stream @defaultValue the global `fetch`
 */
export function rateLimitedFetch(limit: SharedRateLimit, base: GatewayFetch = globalThis.fetch): GatewayFetch {
  return async (url, init) => {
    const slot = await reserveOne(limit, init.signal);
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
    limit.settle(slot, readRateLimitHeaders(headers, Date.now())).catch(() => {});
    return response;
  };
}

async function reserveOne(limit: SharedRateLimit, signal: AbortSignal): Promise<string> {
  for (;;) {
    signal.throwIfAborted();
    const reservation = await limit.reserve(1);
    const slot = reservation.slots[0];
    if (slot !== undefined) return slot;
    await sleep(Math.max(1, reservation.waitMs), undefined, { signal });
  }
}
