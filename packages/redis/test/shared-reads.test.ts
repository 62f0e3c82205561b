import type { Clock } from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { Redis } from 'ioredis';
import { afterEach, expect, it } from 'vitest';
import type { EntryWaits } from '../src/consume/blocking-reads.js';
import { SharedReads } from '../src/consume/shared-reads.js';
import { useRedis } from './support/redis.js';
import { freshPrefix } from './support/replicas.js';

// The one blocking read a host's apps share (docs/hosting.md, "Across replicas"): each consumer's wait
// joins one XREAD; an entry wakes only the waits of its stream; a wait ends alone.

const redis = useRedis();
const clock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (t) => clearTimeout(t as NodeJS.Timeout),
};
const opened: Redis[] = [];

afterEach(() => {
  for (const c of opened.splice(0)) c.disconnect();
});

async function shared(): Promise<SharedReads> {
  const blocking = new Redis(redis().server.url);
  const control = new Redis(redis().server.url);
  opened.push(blocking, control);
  return new SharedReads(blocking, control, clock);
}

/** A wait's result once it ended, or 'pending' (or 'failed': the test's end closes its connection). */
function watch<T>(promise: Promise<T>): () => T | 'pending' | 'failed' {
  let result: T | 'pending' | 'failed' = 'pending';
  void promise.then(
    (r) => (result = r),
    () => (result = 'failed'),
  );
  return () => result;
}

/** How many clients of Redis are blocked in an XREAD now. */
async function blockedReads(): Promise<number> {
  const list = String(await redis().client.call('CLIENT', 'LIST'));
  return list.split('\n').filter((l) => / flags=b /.test(l) && / cmd=xread /.test(l)).length;
}

it('wakes only the waits whose stream got an entry, in one blocked read for all of them', async () => {
  const reads = await shared();
  const p = freshPrefix();
  const [a, b, c] = [`${p}:a`, `${p}:b`, `${p}:c`];
  const waits = [reads.waits(), reads.waits(), reads.waits()];
  const ended = [a, b, c].map((key, i) => watch((waits[i] as EntryWaits).wait([{ key, cursor: '0-0' }], 20_000)));
  await until(async () => (await blockedReads()) === 1 && reads.waiting === 3, 'one read blocked for three waits');
  const id = String(await redis().client.xadd(b, '*', 'e', '{}'));
  await until(async () => ended[1]?.() !== 'pending', 'the wait on b ended');
  expect(ended[1]?.()).toEqual(new Map([[b, id]]));
  expect(ended[0]?.()).toBe('pending');
  expect(ended[2]?.()).toBe('pending');
  // One wait ended on its own: the read goes on for the last one, which its entry wakes.
  await (waits[0] as EntryWaits).interrupt();
  await until(async () => ended[0]?.() !== 'pending', 'the wait on a ended');
  expect(ended[0]?.()).toBeNull();
  expect(ended[2]?.()).toBe('pending');
  const last = String(await redis().client.xadd(c, '*', 'e', '{}'));
  await until(async () => ended[2]?.() !== 'pending', 'the wait on c ended');
  expect(ended[2]?.()).toEqual(new Map([[c, last]]));
});

it('cuts a blocked read short for a wait that joins it, so that its entry wakes it at once', async () => {
  const reads = await shared();
  const p = freshPrefix();
  const first = watch(reads.waits().wait([{ key: `${p}:a`, cursor: '0-0' }], 20_000));
  await until(async () => (await blockedReads()) === 1, 'the first wait blocked');
  const second = watch(reads.waits().wait([{ key: `${p}:d`, cursor: '0-0' }], 20_000));
  await until(async () => reads.waiting === 2, 'the second wait joined');
  const id = String(await redis().client.xadd(`${p}:d`, '*', 'e', '{}'));
  // Had the read not been cut short, the second wait could only end after the first one's read.
  await until(async () => second() !== 'pending', 'the second wait ended', { timeoutMs: 5000 });
  expect(second()).toEqual(new Map([[`${p}:d`, id]]));
  expect(first()).toBe('pending');
});
