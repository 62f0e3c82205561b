import { GatewayClient, type GatewayDispatch, GatewayMalformedEventError } from '@boardbot/gateway';
import {
  eventually,
  frame,
  interaction,
  message,
  messageFrame,
  openStream,
  ready,
  readyFrame,
  trackResources,
} from '@boardbot/test-support';
import { describe, expect, it, vi } from 'vitest';
import { testClient as client, server, TOKEN } from './support/helpers.js';

describe('GatewayClient against a scripted server', () => {
  it('sends the bearer token, resolves connect() with ready, and types every known event', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1));
      res.write(messageFrame(2));
      res.write(
        frame(3, 'message.edit', {
          type: 'message.edit',
          message: { ...message(2), edited_at: '2026-11-21T10:01:00.000Z' },
        }),
      );
      res.write(
        frame(4, 'message.delete', {
          type: 'message.delete',
          message: { ...message(2), content: null, deleted_at: '2026-11-21T10:02:00.000Z' },
        }),
      );
      res.write(frame(5, 'interaction.create', { type: 'interaction.create', interaction: interaction() }));
    });
    const gw = client(s.baseUrl);
    const seen: GatewayDispatch[] = [];
    const typed: string[] = [];
    gw.on('dispatch', (e) => seen.push(e));
    gw.on('message.create', (e, meta) => typed.push(`create ${e.message.seq} ${meta.id}`));
    gw.on('message.edit', (e, meta) => typed.push(`edit ${e.message.edited_at} ${meta.id}`));
    gw.on('message.delete', (e, meta) => typed.push(`delete ${e.message.deleted_at} ${meta.id}`));
    gw.on('interaction.create', (e, meta) => typed.push(`interaction ${e.interaction.command.name} ${meta.id}`));
    const r = await gw.connect();
    expect(r).toEqual(ready());
    await eventually(() => expect(seen).toHaveLength(5));
    expect(seen.map((e) => `${e.name}#${e.id}`)).toEqual([
      'ready#1',
      'message.create#2',
      'message.edit#3',
      'message.delete#4',
      'interaction.create#5',
    ]);
    expect(typed).toEqual([
      'create 2 2',
      'edit 2026-11-21T10:01:00.000Z 3',
      'delete 2026-11-21T10:02:00.000Z 4',
      'interaction roll 5',
    ]);
    expect(s.received[0]?.url).toBe('/api/v1/gateway');
    expect(s.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(s.received[0]?.headers.accept).toBe('text/event-stream');
    expect(s.received[0]?.headers['last-event-id']).toBeUndefined();
    expect(gw.state).toBe('open');
    expect(gw.lastEventId).toBe('5');
  });

  it('passes unknown event names through raw, without a crash', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1));
      res.write(frame(2, 'reaction.add', { type: 'reaction.add', emoji: '👍' }));
      res.write(frame(3, 'board.rename', 'not json at all'));
      res.write('id: 4\ndata: {"no":"event field"}\n\n');
      res.write(messageFrame(5));
    });
    const gw = client(s.baseUrl);
    const seen: GatewayDispatch[] = [];
    gw.on('dispatch', (e) => seen.push(e));
    await gw.connect();
    await eventually(() => expect(seen).toHaveLength(5));
    expect(seen.slice(1)).toEqual([
      { name: 'reaction.add', id: '2', data: { type: 'reaction.add', emoji: '👍' }, unknown: true },
      { name: 'board.rename', id: '3', data: 'not json at all', unknown: true },
      { name: 'message', id: '4', data: { no: 'event field' }, unknown: true },
      { name: 'message.create', id: '5', data: { type: 'message.create', message: message(5) } },
    ]);
  });

  it('skips a known event whose data is malformed, reports it with its id, and goes on', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1));
      res.write(frame(2, 'message.create', '{"type":"message.create","message":'));
      res.write(frame(3, 'message.create', { type: 'message.create', message: { id: 'nope' } }));
      res.write(messageFrame(4));
    });
    const gw = client(s.baseUrl);
    const seen: string[] = [];
    const errors: Array<{ code: string; eventId: string; fatal: boolean }> = [];
    gw.on('dispatch', (e) => seen.push(e.id));
    gw.on('error', (e) =>
      errors.push({ code: e.code, eventId: e instanceof GatewayMalformedEventError ? e.eventId : '', fatal: e.fatal }),
    );
    await gw.connect();
    await eventually(() => expect(seen).toEqual(['1', '4']));
    expect(errors).toEqual([
      { code: 'BOARDBOT_GATEWAY_MALFORMED_EVENT', eventId: '2', fatal: false },
      { code: 'BOARDBOT_GATEWAY_MALFORMED_EVENT', eventId: '3', fatal: false },
    ]);
    expect(gw.state).toBe('open');
  });

  it('moves through connecting and open, and close() ends cleanly with closed', async () => {
    let serverSawClose = false;
    const s = await server((_req, res, _n, raw) => {
      openStream(res);
      res.write(readyFrame(1));
      raw.socket.on('close', () => {
        serverSawClose = true;
      });
    });
    const gw = client(s.baseUrl);
    const states: string[] = [];
    gw.on('connecting', () => states.push('connecting'));
    gw.on('open', () => states.push('open'));
    gw.on('closed', ({ reason }) => states.push(`closed:${reason?.code ?? 'none'}`));
    expect(gw.state).toBe('idle');
    await gw.connect();
    await gw.close();
    expect(states).toEqual(['connecting', 'open', 'closed:none']);
    expect(gw.state).toBe('closed');
    await eventually(() => expect(serverSawClose).toBe(true));
    await expect(gw.connect()).resolves.toEqual(ready());
  });

  it('rejects connect() when close() comes first', async () => {
    const s = await server((_req, res) => openStream(res));
    const gw = client(s.baseUrl);
    const pending = gw.connect();
    await s.waitForRequests(1);
    await gw.close();
    await expect(pending).rejects.toMatchObject({ code: 'BOARDBOT_GATEWAY_CLOSED' });
    const again = new GatewayClient({ token: TOKEN, baseUrl: s.baseUrl });
    await again.close();
    await expect(again.connect()).rejects.toMatchObject({ code: 'BOARDBOT_GATEWAY_CLOSED' });
  });

  it('rejects options that cannot work, naming the fix', () => {
    expect(() => new GatewayClient({ token: '' })).toThrow(/BOARDBOT_TOKEN/);
    expect(() => new GatewayClient({ token: 'x', baseUrl: 'ftp://host' })).toThrow(/baseUrl/);
    expect(() => new GatewayClient({ token: 'x', maxBufferedEvents: 0 })).toThrow(/maxBufferedEvents/);
    expect(() => new GatewayClient({ token: 'x', reconnect: { jitter: 2 } })).toThrow(/jitter/);
  });
});

describe('close()', () => {
  it('leaves no timer and no socket behind, even while reconnecting', async () => {
    const s = await server((_req, res, n) => {
      openStream(res);
      if (n === 0) res.end(readyFrame(1));
      else res.write(readyFrame(1, { resumed: true }));
    });
    // What the client makes from here on (the server's own timers and sockets are not counted).
    const resources = trackResources();
    const gw = new GatewayClient({ token: TOKEN, baseUrl: s.baseUrl, reconnect: { initialDelayMs: 60_000 } });
    const reconnecting = new Promise((resolve) => gw.once('reconnecting', resolve));
    await gw.connect();
    await reconnecting; // the stream ended: a 60 s reconnect timer is pending
    expect(resources.alive('Timeout')).toBeGreaterThan(0);
    await gw.close();
    resources.freeze();
    await vi.waitFor(() => {
      expect(resources.alive('Timeout')).toBe(0);
      expect(resources.alive('Immediate')).toBe(0);
      expect(resources.alive('TCPWRAP')).toBe(0);
    }, 5_000);
    resources.stop();
  });

  it('leaves no timer and no socket behind on an open stream', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1) + messageFrame(2));
    });
    const resources = trackResources();
    const gw = new GatewayClient({ token: TOKEN, baseUrl: s.baseUrl });
    await gw.connect();
    expect(resources.alive('TCPWRAP')).toBeGreaterThan(0);
    await gw.close();
    resources.freeze();
    await vi.waitFor(() => {
      expect(resources.alive('Timeout')).toBe(0);
      expect(resources.alive('TCPWRAP')).toBe(0);
    }, 5_000);
    resources.stop();
  });
});

describe('close() from a listener', () => {
  it('still resolves connect() when a ready listener closes the client', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1));
    });
    const gw = client(s.baseUrl);
    gw.on('ready', () => void gw.close());
    await expect(gw.connect()).resolves.toEqual(ready());
    expect(gw.state).toBe('closed');
  });
});
