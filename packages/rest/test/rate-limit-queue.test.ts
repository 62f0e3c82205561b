import { RateLimitError } from '@boardbot/rest';
import { envelope, message, rateLimitHeaders, recordingLogger, sendJson } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { recordedEvents } from './support/recorded-events.js';
import { scriptedClients } from './support/scripted-clients.js';

const start = scriptedClients({ token: 'tok' });

const userOf = (url: string) => url.split('/').at(-1);

describe('the rate-limit queue', () => {
  it('lets calls leave in arrival order, one per window when the limit is 1', async () => {
    const { server, client } = await start((req, res) =>
      sendJson(res, 200, { id: userOf(req.url) }, rateLimitHeaders(1, 0, 0.03)),
    );
    const ids = ['u1', 'u2', 'u3', 'u4', 'u5'];
    const users = await Promise.all(ids.map((id) => client.getUser(id)));
    expect(users.map((u) => u.id)).toEqual(ids);
    expect(server.received.map((r) => userOf(r.url))).toEqual(ids);
  });

  it('keeps the place of a call that must retry after a 429 at the head of the queue', async () => {
    let first = true;
    const { server, client } = await start((req, res) => {
      if (first) {
        first = false;
        return sendJson(
          res,
          429,
          envelope('rate_limited', 'wait', { retry_after: 0.03 }),
          rateLimitHeaders(1, 0, 0.03),
        );
      }
      sendJson(res, 200, { id: userOf(req.url) }, rateLimitHeaders(1, 0, 0.02));
    });
    await Promise.all(['u1', 'u2', 'u3'].map((id) => client.getUser(id)));
    expect(server.received.map((r) => userOf(r.url))).toEqual(['u1', 'u1', 'u2', 'u3']);
  });

  it('fails queued calls at once with RateLimitError when the window reopens later than maxRateLimitWaitMs', async () => {
    const { server, client } = await start(
      (_req, res) => sendJson(res, 200, { id: 'app' }, rateLimitHeaders(10, 0, 120)),
      {
        maxRateLimitWaitMs: 1000,
      },
    );
    await client.getApp();
    const err = await client.getApp().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ reason: 'max_wait', bucket: 'app', limit: 10 });
    expect((err as RateLimitError).retryAfterMs).toBeGreaterThan(1000);
    expect(server.received).toHaveLength(1);
  });

  it('sends an interaction answer at once though the app token’s window is spent: each token has its bucket', async () => {
    const INTERACTION = 'aW50ZXJhY3Rpb24tdG9rZW4tb2YtdGhpcy10ZXN0LWNhbGw';
    const { server, client } = await start(
      (req, res) =>
        req.url.includes('/interactions/')
          ? sendJson(res, 200, message(1), rateLimitHeaders(5, 4, 1))
          : sendJson(res, 200, { id: 'app' }, rateLimitHeaders(10, 0, 120)),
      { maxRateLimitWaitMs: 1000 },
    );
    await client.getApp();
    await expect(client.answerInteraction(INTERACTION, { content: 'pong' })).resolves.toMatchObject({ seq: 1 });
    // The app token's own window is still spent: its next call is refused rather than kept 120 s.
    await expect(client.getApp()).rejects.toMatchObject({ reason: 'max_wait', bucket: 'app' });
    expect(server.received.map((r) => r.url)).toEqual(['/api/v1/app', `/api/v1/interactions/${INTERACTION}`]);
  });

  it('logs one debug line with the wait, on the waiting call’s logger', async () => {
    const logger = recordingLogger();
    const { client } = await start((_req, res) => sendJson(res, 200, { id: 'app' }, rateLimitHeaders(1, 0, 0.03)));
    await client.getApp();
    await client.getApp({ requestId: 'waiting-call', logger });
    expect(logger.lines).toEqual([
      {
        level: 'debug',
        msg: 'waiting for the rate limit',
        bindings: expect.objectContaining({
          requestId: 'waiting-call',
          bucket: 'app',
          reason: 'exhausted',
          queued: 1,
          limit: 1,
        }),
      },
    ]);
  });

  // Regression: a timer that fired before the client's clock reached the reset re-armed for the same
  // window and announced the wait again (a second debug line and a second rateLimited event).
  it('announces one wait once even when its timer fires before the client clock reaches the reset', async () => {
    const logger = recordingLogger();
    const startedAt = Date.now();
    // A clock running at half speed: every timer fires "early" by the client's own reckoning.
    const now = () => startedAt + (Date.now() - startedAt) / 2;
    const { client } = await start((_req, res) => sendJson(res, 200, { id: 'app' }, rateLimitHeaders(1, 0, 0.03)), {
      now,
    });
    const events = recordedEvents(client, 'rateLimited');
    await client.getApp();
    await client.getApp({ logger });
    expect(logger.lines.filter((l) => l.msg === 'waiting for the rate limit')).toHaveLength(1);
    expect(events).toHaveLength(1);
  });

  it('gives each interaction token its own bucket, apart from the app token’s', async () => {
    const { server, client } = await start((req, res) => {
      if (req.url.includes('/interactions/')) return sendJson(res, 200, { id: 'answer' }, rateLimitHeaders(5, 4, 1));
      sendJson(res, 200, { id: 'app' }, rateLimitHeaders(1, 0, 30));
    });
    await client.getApp();
    // The app bucket is spent for 30 s; interaction answers do not wait for it.
    const answers = await Promise.all([
      client.answerInteraction('token-a', { content: 'a' }),
      client.answerInteraction('token-b', { content: 'b' }),
    ]);
    expect(answers).toHaveLength(2);
    expect(server.received).toHaveLength(3);
  });
});
