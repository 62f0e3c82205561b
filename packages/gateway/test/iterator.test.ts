import type { GatewayDispatch } from '@boardbot/gateway';
import { eventually, messageFrame, openStream, readyFrame } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { server, testClient } from './support/helpers.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('events() iterator', () => {
  it('gets the events that follow ready in the same chunk when created right after connect()', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1) + messageFrame(2) + messageFrame(3));
    });
    const gw = testClient(s.baseUrl);
    await gw.connect();
    const seen: string[] = [];
    for await (const e of gw.events()) {
      seen.push(e.id);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(['2', '3']);
  });

  it('pauses reading while the consumer is slow: bounded lag, nothing dropped, order kept', async () => {
    const total = 20_000;
    let backpressured = false;
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(0));
      let next = 1;
      const pump = () => {
        while (next <= total) {
          let batch = '';
          for (let i = 0; i < 100 && next <= total; i++) batch += messageFrame(next++);
          if (!res.write(batch)) {
            backpressured = true;
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    const max = 50;
    const gw = testClient(s.baseUrl, { maxBufferedEvents: max });
    let delivered = 0;
    let consumed = 0;
    let worstLag = 0;
    gw.on('message.create', () => {
      delivered++;
      worstLag = Math.max(worstLag, delivered - consumed);
    });
    const iterator = gw.events();
    await gw.connect();
    const ids: number[] = [];
    for await (const e of iterator) {
      if (e.name !== 'message.create') continue;
      consumed++;
      ids.push(Number(e.id));
      if (consumed % 50 === 0) await tick(); // a consumer slower than the socket
      if (consumed === total) break;
    }
    expect(ids).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(worstLag).toBeLessThanOrEqual(max + 1);
    expect(backpressured).toBe(true);
  });

  it('gives every iterator every event; the slowest one paces the stream', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      let text = readyFrame(0);
      for (let i = 1; i <= 30; i++) text += messageFrame(i);
      res.write(text);
    });
    const gw = testClient(s.baseUrl, { maxBufferedEvents: 5 });
    const a = gw.events();
    const b = gw.events();
    await gw.connect();
    const drain = async (iterator: AsyncIterableIterator<GatewayDispatch>, every: number) => {
      const ids: string[] = [];
      for await (const e of iterator) {
        ids.push(e.id);
        if (ids.length % every === 0) await tick();
        if (ids.length === 31) break;
      }
      return ids;
    };
    const [fromA, fromB] = await Promise.all([drain(a, 1), drain(b, 7)]);
    const expected = Array.from({ length: 31 }, (_, i) => String(i));
    expect(fromA).toEqual(expected);
    expect(fromB).toEqual(expected);
  });

  it('yields what it holds after close(), then ends', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1) + messageFrame(2) + messageFrame(3));
    });
    const gw = testClient(s.baseUrl);
    const iterator = gw.events();
    const seen: GatewayDispatch[] = [];
    gw.on('message.create', (_e, meta) => {
      if (meta.id === '3') void gw.close();
    });
    await gw.connect();
    for await (const e of iterator) seen.push(e);
    expect(seen.map((e) => e.id)).toEqual(['1', '2', '3']);
    expect(gw.state).toBe('closed');
  });

  it('stops holding events for an iterator the consumer left with break', async () => {
    const s = await server((_req, res) => {
      openStream(res);
      let text = readyFrame(0);
      for (let i = 1; i <= 40; i++) text += messageFrame(i);
      res.write(text);
    });
    const gw = testClient(s.baseUrl, { maxBufferedEvents: 3 });
    const iterator = gw.events();
    const listened: string[] = [];
    gw.on('message.create', (_e, meta) => listened.push(meta.id));
    await gw.connect();
    for await (const e of iterator) if (e.id === '1') break;
    await eventually(() => expect(listened).toHaveLength(40));
  });

  it('rejects a next() called before the previous one settled, and still delivers to the first', async () => {
    let send: (text: string) => void = () => {};
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(0));
      send = (text) => res.write(text);
    });
    const gw = testClient(s.baseUrl);
    await gw.connect();
    const iterator = gw.events()[Symbol.asyncIterator]();
    const first = iterator.next();
    await expect(iterator.next()).rejects.toMatchObject({ code: 'BOARDBOT_GATEWAY_CONCURRENT_NEXT' });
    send(messageFrame(1));
    expect((await first).value).toMatchObject({ id: '1' });
  });
});
