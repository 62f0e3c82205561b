import { deepStrictEqual, strictEqual } from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

/** A session store as core's `SessionStore` declares it (structurally: test-support does not depend on core). */
export interface StoreUnderTest {
  read(key: string): Promise<{ version: number; value: unknown } | undefined>;
  write(key: string, expected: number, value: ValueUnderTest | null): Promise<boolean>;
}

/** A session value as core's `SessionValue`. */
export interface ValueUnderTest {
  data: unknown;
  shape: number;
  expiresAt: number | null;
  applied: string[];
}

// An hour ahead of when the file was loaded: the same for every value, so a read equals what was written.
const EXPIRES_AT = Date.now() + 3_600_000;

const value = (count: number): ValueUnderTest => ({
  data: { count },
  shape: 1,
  expiresAt: EXPIRES_AT,
  applied: [`e${count}`],
});

/** Reads `key`'s count and writes it plus one, retrying lost compare-and-sets, as `update()` does. */
async function increment(store: StoreUnderTest, key: string): Promise<void> {
  for (;;) {
    const record = await store.read(key);
    const count = ((record?.value as ValueUnderTest | null | undefined)?.data as { count: number } | undefined)?.count;
    if (await store.write(key, record?.version ?? 0, value((count ?? 0) + 1))) return;
  }
}

/**
 * What every session store must do, as named checks that throw when it does not: each store's tests
 * run them all (`for (const [name, check] of Object.entries(SESSION_STORE_CONTRACT)) it(name, ...)`),
 * so the memory, file and Redis stores are held to one contract. Each check uses keys of its own.
 */
export const SESSION_STORE_CONTRACT: Record<string, (store: StoreUnderTest) => Promise<void>> = {
  'reads nothing for a key never written': async (store) => {
    strictEqual(await store.read(`never-${randomUUID()}`), undefined);
  },
  'creates version 1 from version 0 and reads back the same value': async (store) => {
    const key = `create-${randomUUID()}`;
    strictEqual(await store.write(key, 0, value(1)), true);
    deepStrictEqual(await store.read(key), { version: 1, value: value(1) });
  },
  'refuses a write from a stale version and keeps the stored value': async (store) => {
    const key = `stale-${randomUUID()}`;
    await store.write(key, 0, value(1));
    await store.write(key, 1, value(2));
    strictEqual(await store.write(key, 1, value(9)), false);
    strictEqual(await store.write(key, 0, value(9)), false);
    deepStrictEqual(await store.read(key), { version: 2, value: value(2) });
  },
  'deletes by writing null: reads as deleted (version 2) or never written, and refuses the old version': async (
    store,
  ) => {
    const key = `delete-${randomUUID()}`;
    await store.write(key, 0, value(1));
    strictEqual(await store.write(key, 1, null), true);
    const after = await store.read(key);
    if (after !== undefined) deepStrictEqual(after, { version: 2, value: null });
    strictEqual(await store.write(key, 1, value(5)), false);
  },
  'lets exactly one of many concurrent writers of one version win': async (store) => {
    const key = `race-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => store.write(key, 0, value(i))));
    strictEqual(results.filter(Boolean).length, 1);
    strictEqual((await store.read(key))?.version, 1);
  },
  'loses no update when many writers increment one key at once, retrying': async (store) => {
    const key = `count-${randomUUID()}`;
    await Promise.all(Array.from({ length: 30 }, () => increment(store, key)));
    const record = await store.read(key);
    strictEqual(record?.version, 30);
    deepStrictEqual((record?.value as ValueUnderTest).data, { count: 30 });
  },
};
