import { DEFAULT_RECONNECT_OPTIONS } from '@boardbot/gateway';
import { eventually, openStream, readyFrame, sendError } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { reconnectDelay } from '../src/reconnect/reconnect-delay.js';
import { record, server, testClient } from './support/helpers.js';

// The back-off itself is `@boardbot/protocol/http`'s `backoffDelay` (tested there); this is how the
// gateway feeds it: the server's `retry:` as the base and `Retry-After` as the floor.
const options = { ...DEFAULT_RECONNECT_OPTIONS };
const at = (attempt: number, extra: Partial<Parameters<typeof reconnectDelay>[0]> = {}) =>
  reconnectDelay({ attempt, serverRetryMs: undefined, retryAfterMs: undefined, random: 0, ...extra }, options);

describe('reconnectDelay', () => {
  it('doubles from the initial delay up to the cap', () => {
    expect([1, 2, 3, 8, 9].map((n) => at(n))).toEqual([250, 500, 1000, 30000, 30000]);
  });

  it("starts from the server's retry: and caps it", () => {
    expect(at(1, { serverRetryMs: 1000 })).toBe(1000);
    expect(at(2, { serverRetryMs: 1000 })).toBe(2000);
    expect(at(1, { serverRetryMs: 99_999_999 })).toBe(30_000);
    expect(at(3, { serverRetryMs: 0 })).toBe(4);
  });

  it('takes at most `jitter` off, never adds', () => {
    expect(at(1, { random: 0.999999 })).toBe(200);
    expect(at(1, { random: 0.5 })).toBe(225);
  });

  it('waits at least Retry-After, within the cap', () => {
    expect(at(1, { retryAfterMs: 5000 })).toBe(5000);
    expect(at(1, { retryAfterMs: 3_600_000 })).toBe(30_000);
    expect(at(8, { retryAfterMs: 1000 })).toBe(30_000);
  });
});

describe('back-off against a server that answers 429 and 503', () => {
  it('waits with exponential back-off, honours Retry-After, then connects and starts over', async () => {
    const answers = [
      (res: Parameters<typeof sendError>[0]) => sendError(res, 429, 'rate_limited', { 'Retry-After': '2' }),
      (res: Parameters<typeof sendError>[0]) => sendError(res, 429, 'rate_limited', { 'Retry-After': '2' }),
      (res: Parameters<typeof sendError>[0]) => sendError(res, 503, 'unavailable', { 'Retry-After': '1' }),
      (res: Parameters<typeof sendError>[0]) => sendError(res, 503, 'unavailable'),
      (res: Parameters<typeof sendError>[0]) => sendError(res, 502, 'bad_gateway'),
    ];
    const s = await server((_req, res, n) => {
      const answer = answers[n];
      if (answer) return answer(res);
      openStream(res, '');
      res.end(readyFrame(n)); // ends at once: the next attempt starts the back-off over
    });
    // Time runs 1000 times faster for the client (its clock and its timers agree), so the test
    // checks real second-sized delays without waiting for them.
    const gw = testClient(s.baseUrl, {
      reconnect: { initialDelayMs: 250, maxDelayMs: 30_000 },
      random: () => 0.5,
      keepAliveTimeoutMs: 1e9,
      now: () => performance.now() * 1000,
      setTimeout: (fn, ms) => setTimeout(fn, ms / 1000),
      clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    });
    const r = record(gw);
    await gw.connect();
    await eventually(() => expect(r.reconnects.length).toBeGreaterThanOrEqual(6));
    await gw.close();
    expect(r.reconnects.slice(0, 6).map((x) => [x.attempt, x.reason.code, x.delayMs])).toEqual([
      [1, 'BOARDBOT_GATEWAY_RATE_LIMITED', 2000], // Retry-After 2 s beats 225 ms
      [2, 'BOARDBOT_GATEWAY_RATE_LIMITED', 2000], // ... and 450 ms
      [3, 'BOARDBOT_GATEWAY_SERVER_ERROR', 1000], // Retry-After 1 s beats 900 ms
      [4, 'BOARDBOT_GATEWAY_SERVER_ERROR', 1800], // 2000 ms less half the jitter
      [5, 'BOARDBOT_GATEWAY_SERVER_ERROR', 3600],
      [1, 'BOARDBOT_GATEWAY_STREAM_ENDED', 225], // a ready resets the count
    ]);
    expect(r.errors).toEqual([]);
    expect(s.received.length).toBeGreaterThanOrEqual(6);
  });
});
