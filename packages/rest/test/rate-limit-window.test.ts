import { envelope, sendJson } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { clientFor } from './support/client-for.js';
import { servedForTest } from './support/served-for-test.js';

// A strict fixed-window limiter like the contract's: `limit` requests per window; the window either
// starts with its first request or is aligned to the clock. Over the limit: 429, no effect.
function fixedWindow(limit: number, windowMs: number, aligned: boolean) {
  let start = Number.NEGATIVE_INFINITY;
  let count = 0;
  return (now: number) => {
    if (aligned) {
      const w = Math.floor(now / windowMs) * windowMs;
      if (w !== start) [start, count] = [w, 0];
    } else if (now >= start + windowMs) [start, count] = [now, 0];
    count++;
    return { ok: count <= limit, remaining: Math.max(0, limit - count), resetAt: start + windowMs };
  };
}

type ResetFormat = 'delta' | 'epoch-seconds' | 'epoch-ms';

async function limitedServer(limit: number, windowMs: number, aligned: boolean, format: ResetFormat) {
  const limiter = fixedWindow(limit, windowMs, aligned);
  const tally = { ok: 0, tooMany: 0 };
  const server = await servedForTest((_req, res) => {
    const now = Date.now();
    const r = limiter(now);
    const reset =
      format === 'delta'
        ? ((r.resetAt - now) / 1000).toFixed(3)
        : format === 'epoch-seconds'
          ? (r.resetAt / 1000).toFixed(3)
          : String(r.resetAt);
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(r.remaining),
      'x-ratelimit-reset': reset,
    };
    if (!r.ok) {
      tally.tooMany++;
      const after = (r.resetAt - now) / 1000;
      return sendJson(res, 429, envelope('rate_limited', 'slow down', { retry_after: after }), {
        ...headers,
        'retry-after': String(Math.ceil(after)),
      });
    }
    tally.ok++;
    sendJson(res, 200, { id: 'app' }, headers);
  });
  return { server, tally };
}

describe('never exceeding the limit', () => {
  it.each([
    ['windows that start with their first request', false],
    ['windows aligned to the clock', true],
  ])('sends 240 concurrent calls through 20 per 150 ms with zero 429 (%s)', async (_name, aligned) => {
    const { server, tally } = await limitedServer(20, 150, aligned, 'delta');
    const client = clientFor(server, { token: 't' });
    const results = await Promise.all(Array.from({ length: 240 }, () => client.getApp()));
    expect(results.every((r) => r?.id === 'app')).toBe(true);
    expect(tally).toEqual({ ok: 240, tooMany: 0 });
  });

  it.each([
    ['an hour ahead', 3_600_000],
    ['an hour behind', -3_600_000],
  ])('reads epoch-second resets against the server Date with the client clock %s', async (_name, skew) => {
    const { server, tally } = await limitedServer(20, 150, true, 'epoch-seconds');
    const client = clientFor(server, { token: 't', now: () => Date.now() + skew });
    const results = await Promise.all(Array.from({ length: 60 }, () => client.getApp()));
    expect(results).toHaveLength(60);
    expect(tally).toEqual({ ok: 60, tooMany: 0 });
  });

  it('reads epoch-millisecond resets too', async () => {
    const { server, tally } = await limitedServer(20, 150, false, 'epoch-ms');
    const client = clientFor(server, { token: 't' });
    await Promise.all(Array.from({ length: 60 }, () => client.getApp()));
    expect(tally).toEqual({ ok: 60, tooMany: 0 });
  });
});
