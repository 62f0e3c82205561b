import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { until } from './eventually.js';

/** A cooldown store as core's `CooldownStore` declares it (structurally: test-support does not depend on core). */
export interface CooldownStoreUnderTest {
  take(key: string, cooldown: { ms: number; uses: number; per: 'user' }, useId: string): number | Promise<number>;
}

const window = (uses: number, ms = 60_000) => ({ ms, uses, per: 'user' as const });

/**
 * What every cooldown store must do, as named checks that throw when it does not: each store's tests
 * run them all (`for (const [name, check] of Object.entries(COOLDOWN_STORE_CONTRACT)) it(name, ...)`),
 * so the memory, Redis and PostgreSQL windows are held to one contract. Each check uses keys of its own.
 */
export const COOLDOWN_STORE_CONTRACT: Record<string, (store: CooldownStoreUnderTest) => Promise<void>> = {
  'takes up to `uses` uses in a window, then answers the wait until its oldest use leaves it': async (store) => {
    const key = `uses-${randomUUID()}`;
    for (let i = 0; i < 3; i++) strictEqual(await store.take(key, window(3), `use-${i}`), 0);
    const wait = await store.take(key, window(3), 'use-3');
    ok(wait > 0 && wait <= 60_000, `a wait within the window, got ${wait}`);
  },
  'keeps the windows of different keys apart': async (store) => {
    const [a, b] = [`apart-a-${randomUUID()}`, `apart-b-${randomUUID()}`];
    strictEqual(await store.take(a, window(1), 'x'), 0);
    ok((await store.take(a, window(1), 'y')) > 0);
    strictEqual(await store.take(b, window(1), 'y'), 0);
  },
  'lets exactly `uses` of many takes at once through': async (store) => {
    const key = `race-${randomUUID()}`;
    const waits = await Promise.all(Array.from({ length: 25 }, (_, i) => store.take(key, window(5), `use-${i}`)));
    strictEqual(waits.filter((w) => w === 0).length, 5);
  },
  'opens the window again once its oldest use left it': async (store) => {
    const key = `reopen-${randomUUID()}`;
    strictEqual(await store.take(key, window(1, 300), 'first'), 0);
    const wait = await store.take(key, window(1, 300), 'second');
    ok(wait > 0 && wait <= 300, `a wait within the window, got ${wait}`);
    let n = 0;
    await until(async () => (await store.take(key, window(1, 300), `later-${n++}`)) === 0, 'the window reopened', {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
  },
};

/**
 * What a cooldown store shared by several processes must do beyond {@link COOLDOWN_STORE_CONTRACT}: an
 * event handled again (in another process, after a crash) takes its use again under the same id, and
 * that counts once. The in-process store (`Cooldowns`) keeps it too, for a bot and the one that
 * replaces it in the same process (a test's restart).
 */
export const SHARED_COOLDOWN_STORE_CONTRACT: Record<string, (store: CooldownStoreUnderTest) => Promise<void>> = {
  'counts a use taken again under the same id once': async (store) => {
    const key = `replay-${randomUUID()}`;
    deepStrictEqual(
      [
        await store.take(key, window(2), 'event-1'),
        await store.take(key, window(2), 'event-1'),
        await store.take(key, window(2), 'event-2'),
        await store.take(key, window(2), 'event-1'),
      ],
      [0, 0, 0, 0],
    );
    ok((await store.take(key, window(2), 'event-3')) > 0, 'a third event is held');
  },
};
