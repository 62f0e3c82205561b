import type { Message } from '@boardbot/protocol';
import { ApiError, NetworkError, UnauthorizedError } from '@boardbot/rest';
import { BOARD, envelope, message, rateLimitHeaders, recordingLogger, sendJson } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { recordedEvents } from './support/recorded-events.js';
import { scriptedClients } from './support/scripted-clients.js';

const TOKEN = 'secret-app-token-0123456789';
const RL = rateLimitHeaders(1000, 999, 1);

const start = scriptedClients({ token: TOKEN });

describe('retries', () => {
  it.each([500, 502, 503, 504])('retries a %i and returns the answer that follows', async (status) => {
    const { server, client } = await start((_req, res, n) => {
      if (n === 0) sendJson(res, status, envelope(status === 503 ? 'unavailable' : 'internal_error'), RL);
      else sendJson(res, 200, { id: 'app', name: 'dev-bot' }, RL);
    });
    const retries = recordedEvents(client, 'retry');
    const app = await client.getApp();
    expect(app).toEqual({ id: 'app', name: 'dev-bot' });
    expect(server.received).toHaveLength(2);
    expect(retries).toEqual([
      expect.objectContaining({ method: 'GET', path: '/app', attempt: 1, reason: 'status', status }),
    ]);
  });

  it('logs each retry at debug, with its reason, on the call’s logger', async () => {
    const logger = recordingLogger();
    const { client } = await start((_req, res, n) => {
      if (n === 0) sendJson(res, 503, envelope('unavailable'), RL);
      else sendJson(res, 200, { id: 'app' }, RL);
    });
    await client.getApp({ requestId: 'retried-call', logger });
    expect(logger.lines).toEqual([
      {
        level: 'debug',
        msg: 'retrying after status',
        bindings: expect.objectContaining({ requestId: 'retried-call', attempt: 1, reason: 'status', status: 503 }),
      },
    ]);
  });

  it('gives up after `retries` retries with the last ApiError', async () => {
    const { server, client } = await start(
      (_req, res) => sendJson(res, 503, envelope('unavailable', 'shutting down'), RL),
      {
        retries: 2,
      },
    );
    const err = await client.getApp().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      code: 'BOARDBOT_API_ERROR',
      status: 503,
      apiCode: 'unavailable',
      method: 'GET',
      path: '/app',
    });
    expect(server.received).toHaveLength(3);
  });

  it('honours a short Retry-After on 503 as the back-off', async () => {
    const { client } = await start(
      (_req, res, n) => {
        if (n === 0) sendJson(res, 503, envelope('unavailable'), { ...RL, 'retry-after': '0' });
        else sendJson(res, 200, { id: 'app' }, RL);
      },
      { retryBaseMs: 5_000, retryMaxMs: 10_000 },
    );
    const retries = recordedEvents(client, 'retry');
    await expect(client.getApp()).resolves.toEqual({ id: 'app' });
    expect(retries[0]?.delayMs).toBe(0);
  });

  it.each([
    [400, 'validation_failed'],
    [403, 'forbidden'],
    [404, 'unknown_board'],
    [410, 'interaction_expired'],
    [422, 'idempotency_key_reused'],
  ])('never retries a %i %s', async (status, code) => {
    const { server, client } = await start((_req, res) =>
      sendJson(res, status, envelope(code, 'nope', { details: [{ path: '/content', message: 'too long' }] }), RL),
    );
    const err = await client.sendMessage(BOARD, { content: 'hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status,
      apiCode: code,
      serverMessage: 'nope',
      method: 'POST',
      path: `/boards/${BOARD}/messages`,
    });
    expect((err as ApiError).details).toEqual([{ path: '/content', message: 'too long' }]);
    expect(server.received).toHaveLength(1);
  });

  it('raises UnauthorizedError on 401, saying to check the token and never showing it', async () => {
    const { server, client } = await start((_req, res) =>
      sendJson(res, 401, envelope('unauthorized', `unknown token ${TOKEN}`), { ...RL, 'www-authenticate': 'Bearer' }),
    );
    const err = await client.listBoards().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'BOARDBOT_UNAUTHORIZED', status: 401, apiCode: 'unauthorized' });
    expect((err as Error).message).toMatch(/check the app token/i);
    expect(JSON.stringify({ ...(err as object), message: (err as Error).message })).not.toContain(TOKEN);
    expect(server.received).toHaveLength(1);
  });

  it('parses an error code this version does not know', async () => {
    const { client } = await start((_req, res) => sendJson(res, 418, envelope('teapot_overheated', 'too hot'), RL));
    await expect(client.getApp()).rejects.toMatchObject({
      code: 'BOARDBOT_API_ERROR',
      status: 418,
      apiCode: 'teapot_overheated',
    });
  });

  it('turns a huge HTML 502 page into a bounded ApiError after the retries', async () => {
    const page = `<html><body><h1>502 Bad Gateway</h1>${'<p>upstream exploded</p>'.repeat(60_000)}</body></html>`;
    const { server, client } = await start(
      (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end(page);
      },
      { retries: 1 },
    );
    const err = (await client.getApp().catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(502);
    expect(err.apiCode).toBe('http_502');
    expect(err.serverMessage).toMatch(/^502 Bad Gateway upstream exploded/);
    expect(err.serverMessage.length).toBeLessThanOrEqual(201);
    expect(err.message.length).toBeLessThan(400);
    expect(server.received).toHaveLength(2);
  });

  it('stops reading an endless error body at its bound and answers with the status, not a timeout', async () => {
    let written = 0;
    const { client } = await start(
      (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.write('<h1>502 Bad Gateway</h1>');
        // Never ends: only the client closing the connection stops it.
        const pump = () => {
          while (!res.destroyed && res.write('<p>more</p>'.repeat(1000))) written += 11_000;
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      },
      { retries: 0, timeoutMs: 30_000 },
    );
    const err = (await client.getApp().catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.apiCode).toBe('http_502');
    expect(err.serverMessage).toMatch(/^502 Bad Gateway more more/);
    // The client stopped it after its bound (64 KiB), with what the socket buffers held in flight.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('raises NetworkError with the attempt count when nothing listens', async () => {
    const { server, client } = await start(() => {}, { retries: 2 });
    await server.close();
    const err = await client.getApp().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({
      code: 'BOARDBOT_NETWORK',
      attempts: 3,
      causeCode: 'ECONNREFUSED',
      method: 'GET',
      path: '/app',
    });
  });
});

describe('idempotency keys', () => {
  it('sends one key per POST call and reuses it on every retry of that call', async () => {
    const { server, client } = await start((_req, res, n) => {
      if (n === 0 || n === 2) sendJson(res, 502, envelope('internal_error'), RL);
      else sendJson(res, 200, message(n), RL);
    });
    await client.sendMessage(BOARD, { content: 'one' });
    await client.sendMessage(BOARD, { content: 'two' });
    const keys = server.received.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[\x21-\x7E]{1,255}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('uses the caller’s key, generates one for a PATCH, and sends no key on GET, PUT or DELETE', async () => {
    const { server, client } = await start((req, res, n) => {
      if (req.method === 'DELETE') {
        res.writeHead(204, RL);
        res.end();
      } else if (req.url.endsWith('/commands')) sendJson(res, 200, { commands: [] }, RL);
      else sendJson(res, 200, message(n + 1), RL);
    });
    await client.sendMessage(BOARD, { content: 'x' }, { idempotencyKey: 'my-key-1' });
    await client.editMessage(BOARD, 'm1', { content: 'y' });
    await client.deleteMessage(BOARD, 'm1');
    await client.replaceCommands([]);
    await client.getApp();
    expect(server.received.map((r) => r.headers['idempotency-key'])).toEqual([
      'my-key-1',
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('stores exactly one message when the connection is reset after the server committed the POST', async () => {
    // A server with the contract's idempotency store: the first attempt is committed, then its
    // connection is cut before the answer; the retry with the same key replays the stored message.
    const stored = new Map<string, Message>();
    const { server, client } = await start((req, res) => {
      const key = String(req.headers['idempotency-key']);
      const replay = stored.get(key);
      if (replay) return sendJson(res, 200, replay, RL);
      const { content } = JSON.parse(req.body) as { content: string };
      stored.set(key, message(stored.size + 1, { content }));
      res.socket?.destroy();
    });
    const retries = recordedEvents(client, 'retry');
    const sent = await client.sendMessage(BOARD, { content: 'exactly once' });
    expect(sent.content).toBe('exactly once');
    expect(stored.size).toBe(1);
    expect(server.received).toHaveLength(2);
    expect(retries).toEqual([expect.objectContaining({ reason: 'network', attempt: 1 })]);
  });

  it('asks again when its own retry meets the first attempt still in progress (409)', async () => {
    const { server, client } = await start((_req, res, n) => {
      if (n === 0) res.socket?.destroy();
      else if (n === 1) sendJson(res, 409, envelope('idempotency_in_progress'), RL);
      else sendJson(res, 200, message(1), RL);
    });
    await expect(client.sendMessage(BOARD, { content: 'x' })).resolves.toMatchObject({ seq: 1 });
    expect(server.received).toHaveLength(3);
    expect(new Set(server.received.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it('asks again when its first attempt meets another sender of the same key in progress (409)', async () => {
    const { server, client } = await start((_req, res, n) => {
      if (n === 0) sendJson(res, 409, envelope('idempotency_in_progress'), RL);
      else sendJson(res, 200, message(1), RL);
    });
    const sent = client.sendMessage(BOARD, { content: 'x' }, { idempotencyKey: 'broadcast:b:1' });
    await expect(sent).resolves.toMatchObject({ seq: 1 });
    expect(server.received.map((r) => r.headers['idempotency-key'])).toEqual(['broadcast:b:1', 'broadcast:b:1']);
  });
});
