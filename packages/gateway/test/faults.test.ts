import { GatewayKeepAliveTimeoutError } from '@boardbot/gateway';
import {
  eventually,
  frame,
  keepAlive,
  messageFrame,
  openStream,
  readyFrame,
  sendError,
  writeThenCut,
} from '@boardbot/test-support';
import { describe, expect, it, vi } from 'vitest';
import { record, server, testClient } from './support/helpers.js';

describe('resume after faults', () => {
  it('does not deliver a frame cut mid-way; it arrives once after the resume', async () => {
    const s = await server((req, res, n) => {
      openStream(res);
      if (n === 0) {
        const partial = messageFrame(3);
        writeThenCut(res, readyFrame(1) + messageFrame(2) + partial.slice(0, partial.length / 2));
      } else {
        expect(req.headers['last-event-id']).toBe('2');
        res.write(readyFrame(2, { resumed: true }) + messageFrame(3) + messageFrame(4));
      }
    });
    const gw = testClient(s.baseUrl);
    const r = record(gw);
    await gw.connect();
    await eventually(() => expect(r.ids()).toEqual(['R1', '2', 'R2', '3', '4']));
    expect(r.reconnects.map((x) => x.reason.code)).toEqual(['BOARDBOT_GATEWAY_NETWORK']);
    expect(gw.lastEventId).toBe('4');
  });

  it('does not deliver an event whose data line arrived but whose blank line did not', async () => {
    const s = await server((_req, res, n) => {
      openStream(res);
      if (n === 0) writeThenCut(res, `${readyFrame(1)}${messageFrame(2).replace(/\n\n$/, '\n')}`);
      else res.write(readyFrame(1, { resumed: true }) + messageFrame(2));
    });
    const gw = testClient(s.baseUrl);
    const r = record(gw);
    await gw.connect();
    await eventually(() => expect(r.ids()).toEqual(['R1', 'R1', '2']));
    expect(s.received[1]?.headers['last-event-id']).toBe('1');
  });

  it('resumes after a clean end of stream (a server restart) and drops replayed duplicates', async () => {
    const s = await server((req, res, n) => {
      openStream(res);
      if (n === 0) {
        res.end(readyFrame(10) + messageFrame(11) + messageFrame(12));
      } else {
        expect(req.headers['last-event-id']).toBe('12');
        // A server that replays too much: the client must drop what it already delivered.
        res.write(readyFrame(12, { resumed: true }) + messageFrame(11) + messageFrame(12) + messageFrame(13));
      }
    });
    const gw = testClient(s.baseUrl);
    const r = record(gw);
    await gw.connect();
    await eventually(() => expect(r.ids()).toEqual(['R10', '11', '12', 'R12', '13']));
    expect(r.reconnects.map((x) => x.reason.code)).toEqual(['BOARDBOT_GATEWAY_STREAM_ENDED']);
  });

  it('reports a gap when the server could not resume, with the id it resumed from', async () => {
    const s = await server((_req, res, n) => {
      openStream(res);
      if (n === 0) res.end(readyFrame(5) + messageFrame(6));
      else res.write(readyFrame(900, { resumed: false, gap: true }) + messageFrame(901));
    });
    const gw = testClient(s.baseUrl);
    const r = record(gw);
    const gaps: Array<string | undefined> = [];
    const resumedFlags: boolean[] = [];
    gw.on('gap', (g) => gaps.push(g.lastEventId));
    gw.on('ready', (ready) => resumedFlags.push(ready.resumed));
    await gw.connect();
    await eventually(() => expect(r.ids()).toEqual(['R5', '6', 'R900', '901']));
    expect(gaps).toEqual(['6']);
    expect(resumedFlags).toEqual([false, false]);
    expect(gw.lastEventId).toBe('901');
  });

  it('reconnects when the socket stalls without a FIN (keep-alive watchdog)', async () => {
    const s = await server((req, res, n) => {
      openStream(res);
      // The first stream goes silent for good but stays open; the second behaves.
      if (n === 0) res.write(readyFrame(1) + messageFrame(2));
      else {
        expect(req.headers['last-event-id']).toBe('2');
        res.write(readyFrame(2, { resumed: true }) + messageFrame(3));
        keepAlive(res);
      }
    });
    const gw = testClient(s.baseUrl, { keepAliveTimeoutMs: 200 });
    const r = record(gw);
    await gw.connect();
    await vi.waitFor(() => expect(r.ids()).toEqual(['R1', '2', 'R2', '3']), { timeout: 10_000 });
    expect(r.reconnects[0]?.reason).toBeInstanceOf(GatewayKeepAliveTimeoutError);
  });

  it('also reconnects when a server accepts the request but never answers', async () => {
    const s = await server((_req, res, n) => {
      if (n === 0) return; // no status line, no bytes: only the watchdog can notice
      openStream(res);
      res.write(readyFrame(1));
      keepAlive(res);
    });
    const gw = testClient(s.baseUrl, { keepAliveTimeoutMs: 200 });
    const r = record(gw);
    await gw.connect();
    expect(r.reconnects.map((x) => x.reason.code)).toEqual(['BOARDBOT_GATEWAY_KEEPALIVE_TIMEOUT']);
  });

  it('retries a 200 that is not an event stream (a proxy page)', async () => {
    const s = await server((_req, res, n) => {
      if (n === 0) {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html>maintenance</html>');
        return;
      }
      openStream(res);
      res.write(readyFrame(1));
    });
    const gw = testClient(s.baseUrl);
    const r = record(gw);
    await gw.connect();
    expect(r.reconnects.map((x) => x.reason.code)).toEqual(['BOARDBOT_GATEWAY_BAD_CONTENT_TYPE']);
  });

  it('retries when the server is not listening yet', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1));
    });
    const port = new URL(s.baseUrl).port;
    await s.close();
    const gw = testClient(`http://127.0.0.1:${port}/api/v1`);
    const r = record(gw);
    // The state as each retry is announced: by the time the test looks, the next attempt may be
    // connecting already.
    const states: string[] = [];
    gw.on('reconnecting', () => states.push(gw.state));
    const pending = gw.connect();
    await eventually(() => expect(r.reconnects.length).toBeGreaterThanOrEqual(2));
    expect(r.reconnects.every((x) => x.reason.code === 'BOARDBOT_GATEWAY_NETWORK')).toBe(true);
    expect(states.length).toBeGreaterThanOrEqual(2);
    expect(states.every((state) => state === 'reconnecting')).toBe(true);
    await gw.close();
    await expect(pending).rejects.toMatchObject({ code: 'BOARDBOT_GATEWAY_CLOSED' });
  });

  it('ignores a frame named like the package events (event: error, event: open)', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1) + frame(2, 'error', { x: 1 }) + frame(3, 'open', { y: 2 }) + messageFrame(4));
    });
    const gw = testClient(s.baseUrl);
    const r = record(gw);
    await gw.connect();
    await eventually(() => expect(r.ids()).toEqual(['R1', '2', '3', '4']));
    expect(r.reconnects).toEqual([]);
    expect(r.events[1]).toEqual({ name: 'error', id: '2', data: { x: 1 }, unknown: true });
  });

  it('goes on with the stream when a listener throws', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1) + messageFrame(2) + messageFrame(3));
    });
    const gw = testClient(s.baseUrl);
    gw.on('message.create', () => {
      throw new Error('handler bug');
    });
    const r = record(gw);
    await gw.connect();
    await eventually(() => expect(r.ids()).toEqual(['R1', '2', '3']));
    expect(r.reconnects).toEqual([]);
  });
});

describe('refusals', () => {
  it('treats 401 as fatal: one request, a clear error, no retry loop', async () => {
    const s = await server((_req, res) => sendError(res, 401, 'unauthorized', { 'WWW-Authenticate': 'Bearer' }));
    const gw = testClient(s.baseUrl);
    const r = record(gw);
    const closed: string[] = [];
    gw.on('closed', ({ reason }) => closed.push(reason?.code ?? 'none'));
    const error = await gw.connect().catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'BOARDBOT_GATEWAY_UNAUTHORIZED',
      fatal: true,
      request: { method: 'GET', status: 401, apiCode: 'unauthorized' },
    });
    expect((error as Error).message).toMatch(/check BOARDBOT_TOKEN/);
    expect(gw.state).toBe('closed');
    expect(closed).toEqual(['BOARDBOT_GATEWAY_UNAUTHORIZED']);
    expect(r.errors.map((e) => e.code)).toEqual(['BOARDBOT_GATEWAY_UNAUTHORIZED']);
    expect(r.reconnects).toEqual([]);
    expect(s.received).toHaveLength(1);
  });

  it('treats 403 as fatal too', async () => {
    const s = await server((_req, res) => sendError(res, 403, 'forbidden'));
    const gw = testClient(s.baseUrl);
    await expect(gw.connect()).rejects.toMatchObject({ code: 'BOARDBOT_GATEWAY_FORBIDDEN', fatal: true });
    expect(s.received).toHaveLength(1);
  });

  it('treats 404 (a wrong baseUrl) as fatal, naming the option to fix', async () => {
    const s = await server((_req, res) => sendError(res, 404, 'not_found'));
    const gw = testClient(`${s.baseUrl}/oops`);
    await expect(gw.connect()).rejects.toThrow(/baseUrl/);
    expect(s.received).toHaveLength(1);
  });

  it('does not follow a redirect with the token to another URL: the 3xx is fatal', async () => {
    const s = await server((_req, res) => {
      res.writeHead(302, { Location: '/elsewhere/gateway' });
      res.end();
    });
    const gw = testClient(s.baseUrl);
    await expect(gw.connect()).rejects.toMatchObject({ fatal: true, request: { method: 'GET', status: 302 } });
    expect(s.received).toHaveLength(1);
  });

  it('makes a fatal error after a reconnect end the iterator with that error', async () => {
    const s = await server((_req, res, n) => {
      if (n > 0) return sendError(res, 401, 'unauthorized');
      openStream(res);
      res.end(readyFrame(1) + messageFrame(2));
    });
    const gw = testClient(s.baseUrl);
    const iterator = gw.events();
    await gw.connect();
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const e of iterator) seen.push(e.id);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['1', '2']);
    expect(failure).toMatchObject({ code: 'BOARDBOT_GATEWAY_UNAUTHORIZED' });
    expect(gw.state).toBe('closed');
  });
});
