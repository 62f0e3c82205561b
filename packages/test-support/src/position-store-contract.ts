import { deepStrictEqual, strictEqual } from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

/** A resume point as core's `Position`. */
export interface PositionUnderTest {
  eventId: string | undefined;
  boards: Record<string, number>;
  savedAt: number;
}

/** Names a point as core's `PositionKey`. */
export interface PositionKeyUnderTest {
  apiUrl: string;
  appId: string;
}

/** A position store as core's `PositionStore` declares it (structurally: test-support does not depend on core). */
export interface PositionStoreUnderTest {
  load(key: PositionKeyUnderTest): Promise<PositionUnderTest | undefined>;
  save(key: PositionKeyUnderTest, position: PositionUnderTest): Promise<void>;
}

const API = 'http://127.0.0.1:8787/api/v1';
const keyOf = (apiUrl = API): PositionKeyUnderTest => ({ apiUrl, appId: randomUUID() });
const point = (n: number, boards: Record<string, number> = { [`board-${n}`]: n }): PositionUnderTest => ({
  eventId: String(1000 + n),
  boards,
  savedAt: 1_790_000_000_000 + n,
});

/**
 * What every position store must do, as named checks that throw when it does not: each store's tests
 * run them all, so the memory, file and PostgreSQL stores keep one contract. Each check uses an app of
 * its own.
 */
export const POSITION_STORE_CONTRACT: Record<string, (store: PositionStoreUnderTest) => Promise<void>> = {
  'loads nothing for a bot that never saved': async (store) => {
    strictEqual(await store.load(keyOf()), undefined);
  },
  'loads back what was saved, each save replacing the one before': async (store) => {
    const key = keyOf();
    await store.save(key, point(1));
    deepStrictEqual(await store.load(key), point(1));
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`b-${i}`, i * 7919]));
    await store.save(key, point(2, many));
    deepStrictEqual(await store.load(key), point(2, many));
  },
  'keeps a point with no event id yet, and the largest seqs': async (store) => {
    const key = keyOf();
    const first = { eventId: undefined, boards: {}, savedAt: 1_790_000_000_000 };
    await store.save(key, first);
    deepStrictEqual(await store.load(key), first);
    const far = { eventId: '98765432109876543210', boards: { b: Number.MAX_SAFE_INTEGER }, savedAt: 1 };
    await store.save(key, far);
    deepStrictEqual(await store.load(key), far);
  },
  'keeps each platform and app apart': async (store) => {
    const key = keyOf();
    const otherPlatform = { ...key, apiUrl: 'https://boards.example.com/api/v1' };
    const otherApp = { ...key, appId: randomUUID() };
    await store.save(key, point(1));
    await store.save(otherPlatform, point(2));
    deepStrictEqual(await store.load(key), point(1));
    deepStrictEqual(await store.load(otherPlatform), point(2));
    strictEqual(await store.load(otherApp), undefined);
  },
  // The runtime saves one point at a time (PositionKeeper): a store need not order saves made at once.
  'replaces the whole point: boards the new save lacks are gone, never merged': async (store) => {
    const key = keyOf();
    await store.save(key, point(1, { a: 5, b: 6 }));
    await store.save(key, point(2, { c: 1 }));
    deepStrictEqual(await store.load(key), point(2, { c: 1 }));
  },
  'gives copies: what the caller changes after a save or a load is not stored': async (store) => {
    const key = keyOf();
    const saved = point(1);
    await store.save(key, saved);
    saved.boards['board-1'] = 99;
    const loaded = (await store.load(key)) as PositionUnderTest;
    loaded.boards['board-1'] = 98;
    deepStrictEqual(await store.load(key), point(1));
  },
};
