import { HttpFaultProxy } from '@boardbot/test-support';
import { startSeededEmulator } from '@boardbot/test-support/emulator';
import { describe, expect, it, onTestFinished } from 'vitest';
import { clientFor } from './support/client-for.js';

/** The seeded app's token in these tests: one that shows up nowhere else. */
const DEV_TOKEN = 'rest-test-dev-token-0123456789';

/** A seeded emulator with the given rate limit, closed when the test finishes. */
async function emulator(requests: number) {
  const fx = await startSeededEmulator({ devToken: DEV_TOKEN, rateLimit: { requests, windowMs: 1000 } });
  onTestFinished(() => fx.close());
  return fx;
}

describe('against the emulator’s rate limit and idempotency', () => {
  it('sends 1,000 concurrent messages through a limit of 50 requests/s with zero 429 and exactly 1,000 stored', async () => {
    const fx = await emulator(50);
    const rest = clientFor({ baseUrl: fx.apiUrl }, { token: DEV_TOKEN });
    const statuses = new Map<number, number>();
    rest.on('response', (e) => statuses.set(e.status, (statuses.get(e.status) ?? 0) + 1));
    const boardId = fx.seed.general.id;
    const before = (await fx.allMessages(boardId)).length;
    const sent = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => rest.sendMessage(boardId, { content: `burst ${i}` })),
    );
    expect(statuses.get(429)).toBeUndefined();
    expect(statuses.get(200)).toBe(1000);
    expect(new Set(sent.map((m) => m?.id)).size).toBe(1000);
    const stored = await fx.allMessages(boardId);
    expect(stored.length - before).toBe(1000);
    expect(new Set(stored.filter((m) => m.content?.startsWith('burst ')).map((m) => m.content)).size).toBe(1000);
  }, 90_000);

  it('stores exactly one message when the connection is reset after the emulator committed the POST', async () => {
    const fx = await emulator(100_000);
    let cut = false;
    const proxy = await HttpFaultProxy.start(fx.apiUrl);
    onTestFinished(() => proxy.close());
    proxy.faultWith((req) => {
      if (req.method === 'POST' && !cut) {
        cut = true;
        return 'reset-after-commit';
      }
      return undefined;
    });
    const rest = clientFor({ baseUrl: proxy.apiUrl }, { token: DEV_TOKEN });
    const retries: string[] = [];
    rest.on('retry', (e) => retries.push(e.reason));
    const message = await rest.sendMessage(fx.seed.general.id, { content: 'exactly once, really' });
    expect(retries).toEqual(['network']);
    // Both attempts reached the emulator and both were answered 200: the second is the replay.
    expect(proxy.upstreamStatuses).toEqual([200, 200]);
    const stored = (await fx.allMessages(fx.seed.general.id)).filter((m) => m.content === 'exactly once, really');
    expect(stored).toHaveLength(1);
    expect(stored[0]?.id).toBe(message.id);
  });
});
