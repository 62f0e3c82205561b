import type { GatewayDispatch } from '@boardbot/gateway';
import { eventually, frame, message, messageFrame, openStream, readyFrame } from '@boardbot/test-support';
import { describe, expect, it, vi } from 'vitest';
import { record, server, testClient } from './support/helpers.js';
import { rechunkingFetch } from './support/rechunk-fetch.js';

function contents(events: GatewayDispatch[]): unknown[] {
  return events.map((e) => (e.name === 'message.create' && !e.unknown ? e.data.message.content : e.name));
}

describe('hostile streams', () => {
  it('cuts an over-long line at maxFrameBytes instead of growing memory, then resumes', async () => {
    let bytesSent = 0;
    const s = await server((_req, res, n, raw) => {
      openStream(res);
      if (n > 0) {
        res.write(readyFrame(2, { resumed: true }) + messageFrame(3));
        return;
      }
      res.write(`${readyFrame(1) + messageFrame(2)}data: `);
      // An endless line: only the client cutting the connection stops it.
      const piece = 'x'.repeat(16 * 1024);
      let open = true;
      raw.socket.on('close', () => {
        open = false;
      });
      const pump = () => {
        if (!open) return;
        bytesSent += piece.length;
        if (res.write(piece)) setImmediate(pump);
        else res.once('drain', pump);
      };
      pump();
    });
    const gw = testClient(s.baseUrl, { maxFrameBytes: 256 * 1024 });
    const r = record(gw);
    await gw.connect();
    await vi.waitFor(() => expect(r.ids()).toEqual(['R1', '2', 'R2', '3']), { timeout: 10_000 });
    expect(r.reconnects.map((x) => x.reason.code)).toEqual(['BOARDBOT_GATEWAY_FRAME_TOO_LARGE']);
    expect(s.received[1]?.headers['last-event-id']).toBe('2');
    // Sent bytes stay within the bound plus what sockets buffer, far from unbounded.
    expect(bytesSent).toBeLessThan(64 * 1024 * 1024);
  });

  it('counts many short data lines of one unfinished event against the same bound', async () => {
    const s = await server((_req, res, n, raw) => {
      openStream(res);
      if (n > 0) return void res.write(readyFrame(1, { resumed: true }) + messageFrame(2));
      res.write(readyFrame(1));
      let open = true;
      raw.socket.on('close', () => {
        open = false;
      });
      const pump = () => {
        if (open && res.write('data: y\n'.repeat(2048))) setImmediate(pump);
        else if (open) res.once('drain', pump);
      };
      pump();
    });
    const gw = testClient(s.baseUrl, { maxFrameBytes: 128 * 1024 });
    const r = record(gw);
    await gw.connect();
    await vi.waitFor(() => expect(r.ids()).toEqual(['R1', 'R1', '2']), { timeout: 10_000 });
    expect(r.reconnects[0]?.reason.code).toBe('BOARDBOT_GATEWAY_FRAME_TOO_LARGE');
  });

  it('never counts keep-alive comments against the bound', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1));
      // 40 KiB of keep-alives, one write each, then an event: well over the 16 KiB bound if counted.
      let i = 0;
      const tick = () => {
        if (i++ < 3000) {
          res.write(': keep-alive\n\n');
          setImmediate(tick);
        } else res.write(messageFrame(2));
      };
      tick();
    });
    const gw = testClient(s.baseUrl, { maxFrameBytes: 16 * 1024 });
    const r = record(gw);
    await gw.connect();
    await vi.waitFor(() => expect(r.ids()).toEqual(['R1', '2']), { timeout: 10_000 });
    expect(r.reconnects).toEqual([]);
  });

  it('ignores retry: abc, caps retry: 99999999, and honours a valid retry: split across chunks', async () => {
    const prefixes = ['retry: abc\n\n', 'retry: 99999999\n\n', 'retry: 40\n\n', 'retry: 1x\n\n'];
    const s = await server((_req, res, n) => {
      openStream(res, prefixes[n] ?? '');
      res.end(readyFrame(n + 1));
    });
    const gw = testClient(s.baseUrl, {
      reconnect: { initialDelayMs: 7, maxDelayMs: 300, jitter: 0.2 },
      random: () => 0,
      fetch: rechunkingFetch(1),
    });
    const r = record(gw);
    await gw.connect();
    await vi.waitFor(() => expect(r.reconnects.length).toBeGreaterThanOrEqual(4), { timeout: 10_000 });
    await gw.close();
    // Stream 1: abc is ignored, so the initial delay applies (random 0 takes no jitter off).
    // Stream 2: 99999999 is capped. Stream 3: 40 is honoured. Stream 4: 1x is ignored (40 stays).
    expect(r.reconnects.slice(0, 4).map((x) => x.delayMs)).toEqual([7, 300, 40, 40]);
  });

  it('parses a stream with CR-only line ends', async () => {
    const s = await server((_req, res) => {
      openStream(res, 'retry: 1000\r\r');
      res.write(`${readyFrame(1) + messageFrame(2)}: keep-alive\n\n${messageFrame(3)}`.replace(/\n/g, '\r'));
    });
    const gw = testClient(s.baseUrl, { fetch: rechunkingFetch(5) });
    const r = record(gw);
    await gw.connect();
    await eventually(() => expect(r.ids()).toEqual(['R1', '2', '3']));
    expect(r.reconnects).toEqual([]);
  });

  it('parses CR LF line ends split between chunks', async () => {
    const s = await server((_req, res) => {
      openStream(res, '');
      res.write((readyFrame(1) + messageFrame(2)).replace(/\n/g, '\r\n'));
    });
    const gw = testClient(s.baseUrl, { fetch: rechunkingFetch(1) });
    const r = record(gw);
    await gw.connect();
    await eventually(() => expect(r.ids()).toEqual(['R1', '2']));
  });

  it('decodes multibyte UTF-8 split across chunks', async () => {
    const text = 'héllo 👋 世界 — ok';
    const s = await server((_req, res) => {
      openStream(res);
      res.write(
        readyFrame(1) + frame(2, 'message.create', { type: 'message.create', message: message(2, { content: text }) }),
      );
    });
    const gw = testClient(s.baseUrl, { fetch: rechunkingFetch(1) });
    const r = record(gw);
    await gw.connect();
    await eventually(() => expect(contents(r.events)).toEqual(['ready', text]));
  });
});
