import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, type SessionStore } from '@boardbot/core';
import { postgresStores } from '@boardbot/postgres';
import { RedisSessionStore } from '@boardbot/redis';
import { startPostgresServer, startRedisServer } from '@boardbot/test-support';
import { Redis } from 'ioredis';
import { it } from 'vitest';
import { median } from './lib/in-process-bot.js';
import { record } from './lib/record.js';

// Session updates per second on PostgreSQL against the file store (the embedded default: the
// baseline) and Redis, in the same run, on the same disk: each server started by the bench with the
// durability the docs recommend (PostgreSQL's defaults, fsync and synchronous commit on; Redis's
// append-only file with `appendfsync everysec`; the file store's fsync and rename). An update is what
// `ctx.session().update()` does to the store: a read, then a compare-and-set write, retried if lost.

const ROUNDS = 7;
const UPDATES = 400;

const value = (count: number) => ({ data: { count }, shape: 1, expiresAt: null, applied: [`e${count}`] });

async function update(store: SessionStore, key: string): Promise<void> {
  for (;;) {
    const record = await store.read(key);
    const count = ((record?.value?.data as { count?: number } | undefined)?.count ?? 0) + 1;
    if (await store.write(key, record?.version ?? 0, value(count))) return;
  }
}

/** Updates per second with `concurrency` updates in flight, each on its own person's session. */
async function rate(store: SessionStore, concurrency: number, round: number): Promise<number> {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = 0; i < UPDATES / concurrency; i++) await update(store, `app:tally:user:${round}-${worker}`);
    }),
  );
  return (UPDATES * 1000) / (performance.now() - start);
}

it('measures session updates per second on PostgreSQL, the file store and Redis', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'boardbot-bench-sessions-'));
  const [pgServer, redisServer] = await Promise.all([startPostgresServer(), startRedisServer()]);
  const redis = new Redis(redisServer.url);
  const pg = postgresStores({ url: pgServer.url, schema: 'bench' });
  await pg.ready();
  const stores: Record<string, SessionStore> = {
    file: new FileSessionStore(dir),
    redis: new RedisSessionStore({ client: () => redis, keyPrefix: 'bench' }),
    postgres: pg.sessions,
  };
  try {
    for (const concurrency of [1, 16]) {
      const rates: Record<string, number[]> = { file: [], redis: [], postgres: [] };
      const ratios: Record<string, number[]> = { redis: [], postgres: [] };
      for (const store of Object.values(stores)) await rate(store, concurrency, -1);
      // Rounds in a turning order, each ratio against the same round's file store, so a change in the
      // machine's load between rounds cancels out.
      const names = Object.keys(stores);
      for (let round = 0; round < ROUNDS; round++) {
        const order = [...names.slice(round % 3), ...names.slice(0, round % 3)];
        const got: Record<string, number> = {};
        for (const name of order) got[name] = await rate(stores[name] as SessionStore, concurrency, round);
        for (const name of names) rates[name]?.push(got[name] as number);
        for (const name of ['redis', 'postgres']) ratios[name]?.push((got[name] as number) / (got.file as number));
      }
      const spread = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}/s`;
      const what = concurrency === 1 ? 'one at a time' : `${concurrency} at once, one session each`;
      record(
        ...names.map((name) => ({
          bench: 'session updates',
          subject: `${name === 'file' ? 'FileSessionStore (baseline)' : name === 'redis' ? 'RedisSessionStore' : 'PostgresSessionStore'}, ${what}`,
          value: median(rates[name] as number[]),
          unit: 'updates/s',
          ratio: name === 'file' ? 1 : median(ratios[name] as number[]),
          note: `${spread(rates[name] as number[])} over ${ROUNDS} rounds of ${UPDATES}; ratio: median of the rounds' ratios`,
        })),
      );
    }
  } finally {
    await pg.close();
    redis.disconnect();
    await Promise.all([pgServer.close(), redisServer.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}, 600_000);
