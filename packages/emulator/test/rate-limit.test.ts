import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ClockedHarness, DEV_TOKEN, Harness } from './helpers/harness.js';

let h: ClockedHarness;
beforeEach(async () => {
  h = await Harness.onFakeClock({ rateLimit: { requests: 3, windowMs: 1000 } });
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
    h.clock.advance(266);
    expect(rate(await h.api('GET', '/boards/not-a-uuid'))).toEqual(['3', '1', '0.734']);
    h.clock.advance(1);
    expect(rate(await h.api('GET', '/nowhere'))).toEqual(['3', '0', '0.733']);
  });

  it('answers 429 rate_limited with Retry-After and retry_after past the limit, with no effect', async () => {
    for (let i = 0; i < 3; i++) await h.api('GET', '/app');
    h.clock.advance(250);
    const r = await h.api('POST', `/boards/${h.seed.general.id}/messages`, DEV_TOKEN, { body: { content: 'x' } });
    expect(r.status).toBe(429);
    expect(r.json.error).toMatchObject({ code: 'rate_limited', retry_after: 0.75 });
    expect(r.headers['retry-after']).toBe('1');
    expect(rate(r)).toEqual(['3', '0', '0.750']);
    expect(await h.messages(h.seed.general.id)).toEqual([]);
    h.clock.advance(750);
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
    h.clock.advance(1000);
    const { token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.bob.id, command: 'ping' });
    for (let i = 0; i < 3; i++) await h.api('GET', '/app');
    const answer = await h.api('POST', `/interactions/${token}`, null, { body: { content: 'pong' } });
    expect([answer.status, ...rate(answer)]).toEqual([200, '3', '2', '1.000']);
    for (let i = 0; i < 2; i++) await h.api('POST', `/interactions/${token}`, null, { body: { content: 'more' } });
    const over = await h.api('POST', `/interactions/${token}`, null, { body: { content: 'too many' } });
    expect(over.json.error.code).toBe('rate_limited');
  });

  it('counts requests without a valid credential against the caller’s address, and answers 429 past the limit', async () => {
    const refusals = [];
    for (const token of ['nope', null, 'other']) {
      const r = await h.api('GET', '/app', token);
      refusals.push([r.status, ...rate(r)]);
      h.clock.advance(100);
    }
    expect(refusals).toEqual([
      [401, '3', '2', '1.000'],
      [401, '3', '1', '0.900'],
      [401, '3', '0', '0.800'],
    ]);
    const over = await h.api('GET', '/app', 'nope');
    expect([over.status, over.json.error.code, over.headers['retry-after'], ...rate(over)]).toEqual([
      429,
      'rate_limited',
      '1',
      '3',
      '0',
      '0.700',
    ]);
    // The address's bucket is not the app token's: a valid token is served meanwhile.
    const app = await h.api('GET', '/app');
    expect([app.status, ...rate(app)]).toEqual([200, '3', '2', '1.000']);
    h.clock.advance(700);
    expect([(await h.api('GET', '/app', 'nope')).status]).toEqual([401]);
  });

  it('counts refusals before any route against the caller’s address too: an unknown path without a credential', async () => {
    expect(rate(await h.api('GET', '/nowhere', null))).toEqual(['3', '2', '1.000']);
    expect(rate(await h.api('DELETE', '/app', null))).toEqual(['3', '1', '1.000']);
    expect(rate(await h.api('GET', '/app', 'nope'))).toEqual(['3', '0', '1.000']);
    expect((await h.api('GET', '/app', null)).json.error.code).toBe('rate_limited');
  });

  // Regression: an unknown token got a bucket before its 404, so made-up tokens filled the limiter
  // (and, past 10,000 of them, made every new one sweep them all).
  it('answers unknown interaction tokens 404 against the caller’s address, with no bucket of their own', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const r = await h.api('POST', `/interactions/${String(i).repeat(43)}`, null, { body: { content: 'x' } });
      answers.push([r.status, r.json.error.code, ...rate(r)]);
    }
    expect(answers).toEqual([
      [404, 'unknown_interaction', '3', '2', '1.000'],
      [404, 'unknown_interaction', '3', '1', '1.000'],
      [404, 'unknown_interaction', '3', '0', '1.000'],
      [429, 'rate_limited', '3', '0', '1.000'],
    ]);
  });

  it('does not rate limit the control API: its refusals show a fresh window and count nothing', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await h.request('GET', '/_emulator/v1/state', { headers: { authorization: 'Bearer wrong' } });
      expect([r.status, ...rate(r)]).toEqual([401, '3', '3', '1.000']);
    }
    expect((await h.api('GET', '/app', 'nope')).status).toBe(401);
  });

  it('refuses a gateway stream over the window limit with 429 rate_limited', async () => {
    for (let i = 0; i < 3; i++) await h.api('GET', '/app');
    const r = await h.api('GET', '/gateway');
    expect([r.status, r.json.error.code]).toEqual([429, 'rate_limited']);
  });
});
