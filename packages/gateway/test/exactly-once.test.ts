import { startTcpFaultProxy } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { startEventLogServer } from './support/event-log-server.js';
import { onCleanup, record, testClient } from './support/helpers.js';
import { prng } from './support/prng.js';

const TOTAL = 10_000;
const CUTS = 100;

describe('the main property', () => {
  it(`delivers ${TOTAL} events exactly once, in id order, while the connection is cut at ${CUTS} random moments`, async () => {
    const seed = Number(process.env.GATEWAY_PROPERTY_SEED ?? Date.now() % 1_000_000);
    const random = prng(seed);
    // The server also replays a few events the client already has, as an at-least-once server would.
    const log = await startEventLogServer(() => Math.floor(random() * 5));
    onCleanup(() => log.close());
    // Each of the first CUTS connections is cut after a random number of bytes: mostly mid-frame,
    // sometimes inside the HTTP head or right after `ready`.
    const proxy = await startTcpFaultProxy({ port: Number(new URL(log.baseUrl).port) }, (n) =>
      n < CUTS ? { cutAfterBytes: 1 + Math.floor(random() * 60_000) } : undefined,
    );
    onCleanup(() => proxy.close());

    const gw = testClient(`${proxy.origin}/api/v1`, { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
    const r = record(gw);
    const ids: number[] = [];
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    gw.on('message.create', (_e, meta) => {
      ids.push(Number(meta.id));
      if (ids.length >= TOTAL) done();
    });
    await gw.connect();

    // Events are produced while the client is being cut, so both the replay and the live path run.
    const producer = setInterval(() => {
      if (log.head < TOTAL) log.append(Math.min(50, TOTAL - log.head));
    }, 2);
    onCleanup(async () => clearInterval(producer));
    await finished;

    const context = `seed ${seed} (set GATEWAY_PROPERTY_SEED to replay)`;
    expect(ids.length, context).toBe(TOTAL);
    expect(
      ids.every((id, i) => id === i + 1),
      context,
    ).toBe(true);
    expect(proxy.cuts, context).toBe(CUTS);
    expect(r.errors, context).toEqual([]);
    expect(r.reconnects.length, context).toBeGreaterThanOrEqual(CUTS);
  }, 60_000);
});
