import type { GatewayError } from '@boardbot/gateway';
import { eventually, openStream } from '@boardbot/test-support';
import { TestClock } from '@boardbot/testing/clock';
import { describe, expect, it } from 'vitest';
import { GatewayConnection } from '../src/transport/connection.js';
import { onCleanup, server, TOKEN } from './support/helpers.js';
import { rechunkingFetch } from './support/rechunk-fetch.js';

// One connection, as the client drives it, against a loopback server that writes `stream` and keeps
// the socket open. The body reaches the connection in pieces of `piece` bytes, so each case below
// happens at the chunk boundaries it names, not wherever TCP happens to split.

interface Seen {
  frames: string[];
  retries: number[];
  ended: GatewayError | undefined;
}

interface Options {
  piece?: number;
  maxFrameBytes?: number;
  keepAliveTimeoutMs?: number;
  /** Time source of the watchdog; a real clock when absent. */
  clock?: TestClock;
}

async function connect(stream: string, options: Options = {}): Promise<Seen> {
  const s = await server((_req, res) => {
    openStream(res, '');
    res.write(stream);
  });
  const { clock } = options;
  const seen: Seen = { frames: [], retries: [], ended: undefined };
  const connection = new GatewayConnection(
    {
      url: `${s.baseUrl}/gateway`,
      token: TOKEN,
      // With a manual clock, time moves on as each piece arrives: a piece every 600 ms.
      fetch: rechunkingFetch(options.piece ?? 1, clock && (() => clock.advance(600))),
      lastEventId: undefined,
      keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 60_000,
      maxFrameBytes: options.maxFrameBytes ?? 1024,
      clock: {
        now: clock ? () => clock.now() : () => performance.now(),
        setTimeout: clock ? (fn, ms) => clock.setTimeout(fn, ms) : (fn, ms) => setTimeout(fn, ms),
        clearTimeout: clock
          ? (handle) => clock.clearTimeout(handle)
          : (handle) => clearTimeout(handle as NodeJS.Timeout),
      },
    },
    {
      open: () => {},
      frame: (_name, data) => seen.frames.push(data),
      retry: (ms) => seen.retries.push(ms),
      end: (reason) => {
        seen.ended = reason;
      },
      gate: () => undefined,
    },
  );
  connection.start();
  onCleanup(() => connection.stop());
  return seen;
}

describe('GatewayConnection: retry:', () => {
  it('reports retry: fields split byte by byte, in LF, CR LF and CR-only line ends', async () => {
    const seen = await connect('id: 1\nretry: 4321\n\nretry:250\r\n\r\nretry: 7\r\rdata: a\n\n');
    await eventually(() => expect(seen.frames).toEqual(['a']));
    expect(seen.retries).toEqual([4321, 250, 7]);
  });

  it('reads a retry: field on the first line, after a byte-order mark', async () => {
    const seen = await connect('\uFEFFretry: 30\n\ndata: a\n\n', { piece: 8 });
    await eventually(() => expect(seen.frames).toEqual(['a']));
    expect(seen.retries).toEqual([30]);
  });

  it('reads retry: only as a field at a line start', async () => {
    const long = `data: ${'x'.repeat(100)}retry: 5\n\n`;
    const seen = await connect(`data: retry: 5\n\nxretry: 6\n\n${long}data: a\n\n`, { piece: 7 });
    await eventually(() => expect(seen.frames).toEqual(['retry: 5', `${'x'.repeat(100)}retry: 5`, 'a']));
    expect(seen.retries).toEqual([]);
  });

  it('ignores retry: values that are not only digits, and goes on with the stream', async () => {
    const seen = await connect('retry: abc\nretry: 1x\nretry: \nretry: -5\nretry:  5\n\ndata: a\n\n');
    await eventually(() => expect(seen.frames).toEqual(['a']));
    expect(seen.retries).toEqual([]);
    expect(seen.ended).toBeUndefined();
  });

  it('reports a retry: too large for any timer as huge (the client caps it), not as nothing', async () => {
    const seen = await connect(`retry: ${'9'.repeat(400)}\n\nretry: 99999999\n\ndata: a\n\n`, { piece: 64 });
    await eventually(() => expect(seen.frames).toEqual(['a']));
    expect(seen.retries).toHaveLength(2);
    expect(seen.retries[0]).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
    expect(seen.retries[1]).toBe(99_999_999);
  });
});

describe('GatewayConnection: the frame bound', () => {
  it('holds an unfinished frame of exactly maxFrameBytes, and cuts one character past it', async () => {
    // `data: ` and 58 x make 64 characters held before the line ends: at the bound, not over it.
    const atBound = `data: ${'x'.repeat(58)}`;
    const seen = await connect(`data: a\n\n${atBound}\n\ndata: ${'y'.repeat(59)}`, { maxFrameBytes: 64 });
    await eventually(() => expect(seen.ended?.code).toBe('BOARDBOT_GATEWAY_FRAME_TOO_LARGE'));
    expect(seen.frames).toEqual(['a', 'x'.repeat(58)]);
  });

  it('counts bytes, not characters, of multibyte text', async () => {
    // 19 three-byte characters after `data: ` hold 63 bytes; 20 hold 66, over the bound in 26 characters.
    const seen = await connect(`data: ${'世'.repeat(19)}\n\ndata: ${'界'.repeat(20)}`, { maxFrameBytes: 64 });
    await eventually(() => expect(seen.ended?.code).toBe('BOARDBOT_GATEWAY_FRAME_TOO_LARGE'));
    expect(seen.frames).toEqual(['世'.repeat(19)]);
  });

  it('counts the data lines of one unfinished event together', async () => {
    // Each line is short, but the event they build never ends.
    const seen = await connect(`data: a\n\n${'data: y\n'.repeat(40)}`, { piece: 16, maxFrameBytes: 64 });
    await eventually(() => expect(seen.ended?.code).toBe('BOARDBOT_GATEWAY_FRAME_TOO_LARGE'));
    expect(seen.frames).toEqual(['a']);
  });

  it('never counts comments, however long the stream stays idle', async () => {
    // About 13,000 characters of keep-alives, split mid-line, some inside an unfinished event:
    // two hundred times the bound if comments were held.
    const idle = ': keep-alive\n'.repeat(500);
    const seen = await connect(`data: a\n${idle}\n${idle.replaceAll('\n', '\n\n')}data: b\n\n`, {
      piece: 5,
      maxFrameBytes: 64,
    });
    await eventually(() => expect(seen.frames).toEqual(['a', 'b']));
    expect(seen.ended).toBeUndefined();
  });
});

describe('GatewayConnection: the watchdog', () => {
  it('is fed by comments alone, and fires once the stream falls silent', async () => {
    const clock = new TestClock(0);
    // Ten comments, one piece each, 600 ms apart: 6 s of nothing but keep-alives, past a 1 s timeout.
    const seen = await connect(`${': keep-alive\n\n'.repeat(10)}data: a\n\n`, {
      piece: 14,
      keepAliveTimeoutMs: 1000,
      clock,
    });
    await eventually(() => expect(seen.frames).toEqual(['a']));
    expect(seen.ended).toBeUndefined();
    clock.advance(1000);
    expect(seen.ended?.code).toBe('BOARDBOT_GATEWAY_KEEPALIVE_TIMEOUT');
  });
});
