import { AbortedError, InvalidResponseError, NetworkError, QueueFullError, TimeoutError } from '@boardbot/rest';
import { BOARD, message, rateLimitHeaders, type Script, sendJson, trackResources } from '@boardbot/test-support';
import { describe, expect, it, vi } from 'vitest';
import { recordedEvents } from './support/recorded-events.js';
import { scriptedClients } from './support/scripted-clients.js';

const RL = rateLimitHeaders(100, 99, 1);
const start = scriptedClients({ token: 'tok' });

const never: Script = () => {
  // The headers never arrive.
};

describe('timeouts', () => {
  it('raises TimeoutError when the headers never arrive, after retrying each attempt', async () => {
    const { server, client } = await start(never, { timeoutMs: 80, retries: 1 });
    const err = await client.getApp().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: 'BOARDBOT_TIMEOUT', timeoutMs: 80, attempts: 2, method: 'GET', path: '/app' });
    expect(server.received).toHaveLength(2);
  });

  it('raises TimeoutError when the body stalls halfway', async () => {
    const { client } = await start(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100', ...RL });
        res.write('{"id":"a');
      },
      { timeoutMs: 80, retries: 0 },
    );
    await expect(client.getApp()).rejects.toBeInstanceOf(TimeoutError);
  });

  it('recovers when a stalled attempt is followed by a good one', async () => {
    const { client } = await start(
      (_req, res, n) => {
        if (n > 0) sendJson(res, 200, { id: 'app' }, RL);
      },
      { timeoutMs: 80 },
    );
    await expect(client.getApp()).resolves.toEqual({ id: 'app' });
  });
});

describe('truncated bodies', () => {
  it('retries a body cut short by the connection closing, and returns the full one', async () => {
    const { server, client } = await start((_req, res, n) => {
      if (n === 0) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200', ...RL });
        res.end('{"id":"00000000-0000-4000-8000-0000000');
        res.socket?.destroy();
      } else sendJson(res, 200, message(1), RL);
    });
    await expect(client.sendMessage(BOARD, { content: 'x' })).resolves.toMatchObject({ seq: 1 });
    expect(server.received).toHaveLength(2);
    expect(server.received[1]?.headers['idempotency-key']).toBe(server.received[0]?.headers['idempotency-key']);
  });

  it('raises NetworkError when every body is cut short', async () => {
    const { client } = await start(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200', ...RL });
        res.end('{"id":');
        res.socket?.destroy();
      },
      { retries: 1 },
    );
    await expect(client.getApp()).rejects.toBeInstanceOf(NetworkError);
  });

  it('raises InvalidResponseError for a well-framed body that is not JSON', async () => {
    const { server, client } = await start(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', ...RL });
        res.end('{"id":"app","name":');
      },
      { retries: 1 },
    );
    const err = await client.getApp().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err).toMatchObject({ code: 'BOARDBOT_INVALID_RESPONSE', status: 200, excerpt: '{"id":"app","name":' });
    expect(server.received).toHaveLength(2);
  });

  it('raises InvalidResponseError when a record is not an object or a list is not a list', async () => {
    const { client } = await start((req, res) =>
      sendJson(res, 200, req.url.endsWith('/boards') ? { boards: 'no' } : [1, 2], RL),
    );
    await expect(client.getApp()).rejects.toMatchObject({ code: 'BOARDBOT_INVALID_RESPONSE' });
    await expect(client.listBoards()).rejects.toMatchObject({ code: 'BOARDBOT_INVALID_RESPONSE' });
  });
});

describe('abort and close', () => {
  it('aborts a call in flight with AbortedError, not a timeout', async () => {
    const { server, client } = await start(never);
    const controller = new AbortController();
    const pending = client.getApp({ signal: controller.signal });
    await server.waitForRequests(1);
    controller.abort();
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(err).toMatchObject({ code: 'BOARDBOT_ABORTED', method: 'GET', path: '/app' });
    expect(server.received).toHaveLength(1);
  });

  it('aborts a call whose body is arriving with AbortedError', async () => {
    let sentHead = () => {};
    const headSent = new Promise<void>((resolve) => {
      sentHead = resolve;
    });
    const { client } = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100', ...RL });
      res.write('{"id":"a', () => sentHead());
    });
    const controller = new AbortController();
    const pending = client.getApp({ signal: controller.signal });
    await headSent;
    controller.abort(new Error('changed my mind'));
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(err).toMatchObject({ code: 'BOARDBOT_ABORTED', method: 'GET', path: '/app' });
  });

  it('aborts a call waiting in the rate-limit queue; it is never sent and the queue moves on', async () => {
    const { server, client } = await start((_req, res) =>
      sendJson(res, 200, { id: 'app' }, rateLimitHeaders(1, 0, 0.3)),
    );
    const waits = recordedEvents(client, 'rateLimited');
    await client.getApp(); // learns: 0 left for 300 ms
    const controller = new AbortController();
    const queued = new Promise((resolve) => client.on('rateLimited', resolve));
    const aborted = client.getApp({ signal: controller.signal });
    const next = client.getApp();
    await queued; // the call waits in the queue now
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortedError);
    await expect(next).resolves.toEqual({ id: 'app' });
    expect(server.received).toHaveLength(2);
    expect(waits[0]).toMatchObject({
      bucket: 'app',
      reason: 'exhausted',
      queued: 1,
      limit: 1,
      method: 'GET',
      path: '/app',
    });
  });

  it('aborts a call backing off between retries', async () => {
    const { server, client } = await start((_req, res) => sendJson(res, 503, { error: { code: 'unavailable' } }, RL), {
      retryBaseMs: 60_000,
      retryMaxMs: 60_000,
    });
    const controller = new AbortController();
    const backingOff = new Promise((resolve) => client.on('retry', resolve));
    const pending = client.getApp({ signal: controller.signal });
    await backingOff; // the 503 came back: the call waits 60 s before its retry
    expect(server.received).toHaveLength(1);
    controller.abort(new Error('user gave up'));
    const err = (await pending.catch((e: unknown) => e)) as AbortedError;
    expect(err).toBeInstanceOf(AbortedError);
    expect((err.cause as Error).message).toBe('user gave up');
  });

  it('sends nothing for an already aborted signal', async () => {
    const { server, client } = await start((_req, res) => sendJson(res, 200, {}, RL));
    await expect(client.getApp({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortedError);
    expect(server.received).toHaveLength(0);
  });

  it('refuses calls past maxQueued with QueueFullError', async () => {
    const { client } = await start((_req, res) => setTimeout(() => sendJson(res, 200, { id: 'app' }, RL), 50), {
      maxQueued: 2,
    });
    // The first call probes the window; the next two wait for its answer; the fourth is refused.
    const calls = [client.getApp(), client.getApp(), client.getApp()];
    await expect(client.getApp()).rejects.toBeInstanceOf(QueueFullError);
    await expect(Promise.all(calls)).resolves.toHaveLength(3);
  });

  it('close() fails queued and backing-off calls, and later calls, with AbortedError', async () => {
    const { client } = await start(
      (_req, res) => sendJson(res, 503, { error: { code: 'unavailable' } }, rateLimitHeaders(1, 0, 30)),
      {
        retryBaseMs: 60_000,
        retryMaxMs: 60_000,
      },
    );
    const retrying = new Promise((resolve) => client.on('retry', resolve));
    const waiting = new Promise((resolve) => client.on('rateLimited', resolve));
    const backingOff = client.getApp().catch((e: unknown) => e);
    const queued = client.getApp().catch((e: unknown) => e);
    // The first call is backing off after its 503, the second waits for the window it announced.
    await Promise.all([retrying, waiting]);
    await client.close();
    expect(await backingOff).toMatchObject({ code: 'BOARDBOT_ABORTED', message: expect.stringMatching(/closed/) });
    expect(await queued).toMatchObject({ code: 'BOARDBOT_ABORTED' });
    await expect(client.getApp()).rejects.toMatchObject({ code: 'BOARDBOT_ABORTED' });
  });

  it('leaves no socket and no timer behind after faults, aborts and close()', async () => {
    let n = 0;
    const { server, client } = await start(
      (_req, res) => {
        n++;
        if (n % 4 === 0) res.socket?.destroy();
        else if (n % 4 === 1) sendJson(res, 503, { error: { code: 'unavailable' } }, RL);
        else if (n % 4 === 2)
          return; // stall
        else sendJson(res, 200, { id: 'app' }, RL);
      },
      { timeoutMs: 50 },
    );
    // What the client makes from here on (the server's own timers and sockets are not counted).
    const resources = trackResources();
    const controller = new AbortController();
    const calls = Array.from({ length: 8 }, (_, i) =>
      client.getApp(i % 3 === 0 ? { signal: controller.signal } : {}).catch((e: unknown) => e),
    );
    setTimeout(() => controller.abort(), 30);
    await Promise.all(calls);
    await client.close();
    resources.freeze();
    // Sockets close and undici's shared timer stops a moment after close(); a leaked back-off or
    // queue timer (seconds to minutes) would still be there.
    await vi.waitFor(() => {
      expect(server.openSockets()).toBe(0);
      expect(resources.alive('Timeout')).toBe(0);
      expect(resources.alive('TCPWRAP')).toBe(0);
    }, 5_000);
    resources.stop();
  });
});
