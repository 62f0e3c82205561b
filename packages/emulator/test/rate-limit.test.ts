import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_TOKEN, FakeClock, Harness } from './helpers/harness.js';

let h: Harness;
let clock: FakeClock;
beforeEach(async () => {
  clock = new FakeClock();
  h = await Harness.start({ now: clock.now, rateLimit: { requests: 3, windowMs: 1000 } });
});
afterEach(() => h.close());

const rate = (r: { headers: Record<string, unknown> }) => [
  r.headers['x-ratelimit-limit'],
  r.headers['x-ratelimit-remaining'],
  r.headers['x-ratelimit-reset'],
];

describe('rate limit', () => {
  it('counts requests per window in the three headers, errors included', async () => {
    expect(rate(await h.api('GET', '/app'))).toEqual(['3', '2', '1.000']);
    clock.advance(266);
    expect(rate(await h.api('GET', '/boards/not-a-uuid'))).toEqual(['3', '1', '0.734']);
    clock.advance(1);
    expect(rate(await h.api('GET', '/nowhere'))).toEqual(['3', '0', '0.733']);
  });

  it('answers 429 rate_limited with Retry-After and retry_after past the limit, with no effect', async () => {
    for (let i = 0; i < 3; i++) await h.api('GET', '/app');
    clock.advance(250);
    const r = await h.api('POST', `/boards/${h.seed.general.id}/messages`, DEV_TOKEN, { body: { content: 'x' } });
    expect(r.status).toBe(429);
    expect(r.json.error).toMatchObject({ code: 'rate_limited', retry_after: 0.75 });
    expect(r.headers['retry-after']).toBe('1');
    expect(rate(r)).toEqual(['3', '0', '0.750']);
    expect(await h.messages(h.seed.general.id)).toEqual([]);
    clock.advance(750);
    const next = await h.api('POST', `/boards/${h.seed.general.id}/messages`, DEV_TOKEN, { body: { content: 'x' } });
    expect(next.status).toBe(200);
    expect(rate(next)).toEqual(['3', '2', '1.000']);
  });

  it('keeps one bucket per app token', async () => {
    const other = await h.createApp('other');
    for (let i = 0; i < 3; i++) await h.api('GET', '/app');
    expect((await h.api('GET', '/app')).status).toBe(429);
    const r = await h.api('GET', '/app', other.token);
    expect([r.status, ...rate(r)]).toEqual([200, '3', '2', '1.000']);
  });

  it('counts answers to an interaction against its token, not the app token', async () => {
    await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
    clock.advance(1000);
    const { token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.bob.id, command: 'ping' });
    for (let i = 0; i < 3; i++) await h.api('GET', '/app');
    const answer = await h.api('POST', `/interactions/${token}`, null, { body: { content: 'pong' } });
    expect([answer.status, ...rate(answer)]).toEqual([200, '3', '2', '1.000']);
    for (let i = 0; i < 2; i++) await h.api('POST', `/interactions/${token}`, null, { body: { content: 'more' } });
    const over = await h.api('POST', `/interactions/${token}`, null, { body: { content: 'too many' } });
    expect(over.json.error.code).toBe('rate_limited');
  });

  it('sends the headers of a fresh window on 401 answers, without counting them', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await h.api('GET', '/app', 'nope');
      expect([r.status, ...rate(r)]).toEqual([401, '3', '3', '1.000']);
    }
  });

  // Regression: an unknown token got a bucket before its 404, so made-up tokens filled the limiter
  // (and, past 10,000 of them, made every new one sweep them all).
  it('answers an unknown interaction token 404 without counting it: no bucket, a fresh window each time', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await h.api('POST', `/interactions/${'u'.repeat(43)}`, null, { body: { content: 'x' } });
      expect([r.status, r.json.error.code, ...rate(r)]).toEqual([404, 'unknown_interaction', '3', '3', '1.000']);
    }
  });

  it('refuses a gateway stream over the window limit with 429 rate_limited', async () => {
    for (let i = 0; i < 3; i++) await h.api('GET', '/app');
    const r = await h.api('GET', '/gateway');
    expect([r.status, r.json.error.code]).toEqual([429, 'rate_limited']);
  });
});
