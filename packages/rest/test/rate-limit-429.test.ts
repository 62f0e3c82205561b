import { RateLimitError, type RestClientOptions } from '@boardbot/rest';
import { envelope, rateLimitHeaders, type Script, sendJson } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { recordedEvents } from './support/recorded-events.js';
import { scriptedClients } from './support/scripted-clients.js';

const TOKEN = 'secret-app-token-0123456789';
const startClient = scriptedClients({ token: TOKEN });

/** A scripted server and its client, with the client's retries and rate-limit waits recorded. */
async function start(script: Script, options: RestClientOptions = {}) {
  const { server, client } = await startClient(script, options);
  return { server, client, retries: recordedEvents(client, 'retry'), waits: recordedEvents(client, 'rateLimited') };
}

/** A 429 as the contract sends it, with the given `Retry-After` header and optional body field. */
function tooMany(retryAfter: string | undefined, bodySeconds?: number, reset = 0.02): Script {
  return (_req, res, n) => {
    if (n < 3) {
      const headers: Record<string, string> = { ...rateLimitHeaders(50, 0, reset) };
      if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
      sendJson(
        res,
        429,
        envelope('rate_limited', 'slow down', bodySeconds === undefined ? {} : { retry_after: bodySeconds }),
        headers,
      );
    } else sendJson(res, 200, { id: 'app' }, rateLimitHeaders(50, 49, 1));
  };
}

describe('429 answers', () => {
  it('rides out a 429 storm, waiting error.retry_after each time, then returns the answer', async () => {
    const { server, client, retries, waits } = await start(tooMany('1', 0.015));
    await expect(client.getApp()).resolves.toEqual({ id: 'app' });
    expect(server.received).toHaveLength(4);
    // CONTRACT: error.retry_after is the precise decimal; it wins over the rounded-up header.
    expect(retries.map((r) => [r.reason, r.delayMs, r.status])).toEqual([
      ['rate_limited', 15, 429],
      ['rate_limited', 15, 429],
      ['rate_limited', 15, 429],
    ]);
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits[0]).toMatchObject({ bucket: 'app', reason: 'retry_after', method: 'GET', path: '/app', limit: 50 });
  });

  it('retries at once on Retry-After: 0', async () => {
    const { server, client, retries } = await start(tooMany('0'));
    await expect(client.getApp()).resolves.toEqual({ id: 'app' });
    expect(server.received).toHaveLength(4);
    expect(retries.map((r) => r.delayMs)).toEqual([0, 0, 0]);
  });

  it('treats a negative Retry-After as 0', async () => {
    const { client, retries } = await start(tooMany('-5'));
    await expect(client.getApp()).resolves.toEqual({ id: 'app' });
    expect(retries.map((r) => r.delayMs)).toEqual([0, 0, 0]);
  });

  it('falls back to X-RateLimit-Reset when Retry-After is garbage', async () => {
    const { client, retries } = await start(tooMany('soon-ish', undefined, 0.025));
    await expect(client.getApp()).resolves.toEqual({ id: 'app' });
    expect(retries.map((r) => r.delayMs)).toEqual([25, 25, 25]);
  });

  it('waits one second when a 429 carries no usable hint at all', async () => {
    const { client, retries } = await start((_req, res, n) => {
      if (n === 0) sendJson(res, 429, envelope('rate_limited'), { 'retry-after': 'garbage' });
      else sendJson(res, 200, { id: 'app' }, rateLimitHeaders(50, 49, 1));
    });
    await expect(client.getApp()).resolves.toEqual({ id: 'app' });
    expect(retries.map((r) => r.delayMs)).toEqual([1000]);
  });

  it('reads an HTTP-date Retry-After against the server Date', async () => {
    const { client, retries } = await start((_req, res, n) => {
      if (n === 0) {
        sendJson(res, 429, envelope('rate_limited'), {
          'retry-after': 'Sat, 21 Nov 2026 10:00:01 GMT',
          date: 'Sat, 21 Nov 2026 10:00:00 GMT',
        });
      } else sendJson(res, 200, { id: 'app' }, rateLimitHeaders(50, 49, 1));
    });
    await expect(client.getApp()).resolves.toEqual({ id: 'app' });
    expect(retries.map((r) => r.delayMs)).toEqual([1000]);
  });

  it('refuses a Retry-After of two days at once with RateLimitError, sending nothing more', async () => {
    const { server, client } = await start(tooMany(String(2 * 24 * 3600)));
    const err = await client.getApp().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({
      code: 'BOARDBOT_RATE_LIMITED',
      reason: 'max_wait',
      bucket: 'app',
      retryAfterMs: 2 * 24 * 3600 * 1000,
      method: 'GET',
      path: '/app',
    });
    expect(server.received).toHaveLength(1);
  });

  it('refuses a wait just past a small maxRateLimitWaitMs, and accepts one within it', async () => {
    const { client } = await start(tooMany('1', 0.2), { maxRateLimitWaitMs: 100 });
    await expect(client.getApp()).rejects.toMatchObject({ code: 'BOARDBOT_RATE_LIMITED', retryAfterMs: 200 });
  });

  it('gives up after rateLimitRetries 429 answers in a row', async () => {
    const { server, client } = await start(
      (_req, res) => sendJson(res, 429, envelope('rate_limited', 'no', { retry_after: 0 }), { 'retry-after': '0' }),
      { rateLimitRetries: 4 },
    );
    await expect(client.getApp()).rejects.toMatchObject({ code: 'BOARDBOT_RATE_LIMITED', reason: 'too_many_429' });
    expect(server.received).toHaveLength(5);
  });

  it('holds back the other calls of the credential while a 429 wait runs', async () => {
    let tooManySent = 0;
    const { server, client } = await start((_req, res, n) => {
      if (n === 0) {
        tooManySent++;
        sendJson(res, 429, envelope('rate_limited', 'wait', { retry_after: 0.05 }), rateLimitHeaders(5, 0, 0.05));
      } else sendJson(res, 200, { id: 'app' }, rateLimitHeaders(5, 4, 1));
    });
    // The first call probes the unknown limit; its 429 blocks the bucket, so the two others wait too
    // instead of drawing 429s of their own.
    const results = await Promise.all([client.getApp(), client.getApp(), client.getApp()]);
    expect(results).toEqual([{ id: 'app' }, { id: 'app' }, { id: 'app' }]);
    expect(server.received).toHaveLength(4);
    expect(tooManySent).toBe(1);
  });
});
