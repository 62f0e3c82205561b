import type { GatewayFetch } from '@boardbot/gateway';
import type { RateLimitInfo, Reservation, SharedRateLimit } from '@boardbot/rest';
import { openStream, startLoopbackServer } from '@boardbot/test-support';
import { TestClock } from '@boardbot/testing/clock';
import { describe, expect, it } from 'vitest';
import { rateLimitedFetch } from '../../src/runtime/scale/rate-limited-fetch.js';

const T0 = Date.parse('2030-01-01T00:00:00Z');

/** A shared bucket that answers `reserve` from a script and records what was settled. */
function scriptedLimit(answers: Reservation[]) {
  const settled: { slot: string; info: RateLimitInfo | undefined | null }[] = [];
  let reserves = 0;
  const limit: SharedRateLimit = {
    reserve: async () => {
      reserves++;
      return answers.shift() ?? { slots: [], waitMs: 60_000 };
    },
    settle: async (slot, info) => {
      settled.push({ slot, info });
    },
    block: async () => {},
  };
  return { limit, settled, reserves: () => reserves };
}

/** A stream's answer whose window resets 3 s after T0 (epoch milliseconds, no `Date`). */
const opened: GatewayFetch = async () =>
  new Response(null, {
    headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': String(T0 + 3000) },
  });

/** Opens the stream through `fetch`, as the gateway client does. */
const open = (fetch: GatewayFetch, signal = new AbortController().signal, url = 'http://platform/gateway') =>
  fetch(url, { method: 'GET', headers: {}, signal });

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('rateLimitedFetch', () => {
  it('waits for a slot on the bot clock, and reads the reset against it', async () => {
    const clock = new TestClock(T0);
    const { limit, settled, reserves } = scriptedLimit([
      { slots: [], waitMs: 500 },
      { slots: ['s1'], waitMs: 0 },
    ]);
    let fetched = 0;
    const fetch = rateLimitedFetch(limit, clock, (url, init) => {
      fetched++;
      return opened(url, init);
    });

    const response = open(fetch);
    await flush();
    expect([reserves(), clock.pending]).toEqual([1, 1]);
    clock.advance(499);
    await flush();
    expect([reserves(), fetched]).toEqual([1, 0]);

    clock.advance(1);
    await response;
    expect([reserves(), fetched]).toEqual([2, 1]);
    await flush();
    // The window resets at T0 + 3000, read against the clock's T0 + 500, not against the wall clock.
    expect(settled).toEqual([{ slot: 's1', info: { limit: 10, remaining: 4, resetDelayMs: 2500 } }]);
  });

  it('gives up the wait when the gateway aborts, leaving no timer on the clock', async () => {
    const clock = new TestClock(T0);
    const { limit } = scriptedLimit([{ slots: [], waitMs: 500 }]);
    const abort = new AbortController();
    const response = open(rateLimitedFetch(limit, clock, opened), abort.signal);
    await flush();
    expect(clock.pending).toBe(1);
    abort.abort(new Error('closed'));
    await expect(response).rejects.toThrow('closed');
    expect(clock.pending).toBe(0);
  });

  it('opens each stream over node:http by default: the process keeps no trace of the streams it opened', async () => {
    // Node's global fetch keeps a resource-timing entry of every request it ends in the process's
    // performance timeline (up to 250, never cleared): a long-lived replica opens a gateway at each
    // app it takes over. The limit grants every reservation at once.
    const server = await startLoopbackServer((_req, res) => openStream(res));
    const limit: SharedRateLimit = {
      reserve: async () => ({ slots: ['s'], waitMs: 0 }),
      settle: async () => {},
      block: async () => {},
    };
    const fetch = rateLimitedFetch(limit, new TestClock(T0));
    const url = `${server.baseUrl}/gateway`;
    const entries = () => performance.getEntriesByType('resource').filter((e) => e.name === url).length;
    try {
      for (let i = 0; i < 5; i++) {
        const abort = new AbortController();
        const response = await open(fetch, abort.signal, url);
        const reader = response.body?.getReader();
        expect((await reader?.read())?.done).toBe(false);
        // The gateway closing the stream, as a replica handing its app over does.
        abort.abort(new Error('handed over'));
        await reader?.read().catch(() => undefined);
      }
      await server.waitForRequests(5);
      expect(entries()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
