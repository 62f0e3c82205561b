import { MemorySessionStore } from '@boardbot/core';
import {
  advanced,
  type BroadcastCursor,
  BroadcastRecord,
  fingerprintOf,
  MAX_KEPT_FAILURES,
} from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

// A broadcast's durable progress (broadcasts/broadcast-record.ts): its plan, fixed at the first call,
// and its cursor, rewritten by compare-and-set after each board, in the bot's session store.

const BODY = { content: 'maintenance at 22:00' };
const FP = fingerprintOf(BODY);
const boards =
  (...ids: string[]) =>
  async () =>
    ids;

describe('BroadcastRecord', () => {
  it('keeps the boards of its first call: a resumed call with a filter reads them, not the boards of now', async () => {
    const store = new MemorySessionStore();
    const first = await new BroadcastRecord(store, 'b', () => 0, 1000).plan(FP, boards('a', 'b', 'c'), false);
    let asked = false;
    const again = await new BroadcastRecord(store, 'b', () => 0, 1000).plan(
      FP,
      async () => {
        asked = true;
        return ['a', 'd'];
      },
      false,
    );
    expect(again).toEqual(first);
    expect(again.boards).toEqual(['a', 'b', 'c']);
    expect(asked).toBe(false);
  });

  it('refuses the same id with another message, or with other named boards (in any order they pass)', async () => {
    const record = new BroadcastRecord(new MemorySessionStore(), 'b', () => 0, 1000);
    await record.plan(FP, boards('a', 'b'), true);
    await expect(record.plan(fingerprintOf({ content: 'other' }), boards('a', 'b'), true)).rejects.toMatchObject({
      code: 'BOARDBOT_BROADCAST_CHANGED',
    });
    await expect(record.plan(FP, boards('a', 'c'), true)).rejects.toMatchObject({ code: 'BOARDBOT_BROADCAST_CHANGED' });
    await expect(record.plan(FP, boards('b', 'a'), true)).resolves.toMatchObject({ boards: ['a', 'b'] });
  });

  it('starts its cursor at the first board, reads back what it wrote, and refuses a write from a stale version', async () => {
    const record = new BroadcastRecord(new MemorySessionStore(), 'b', () => 0, 1000);
    const plan = await record.plan(FP, boards('a', 'b'), true);
    const start = await record.cursor(plan);
    expect(start.cursor).toMatchObject({ next: 0, since: undefined, sent: 0, failed: 0 });
    const begun = { ...start.cursor, since: 5 };
    const version = await record.write(start.version, begun);
    expect(version).toBe(start.version + 1);
    expect((await record.cursor(plan)).cursor).toEqual(begun);
    // A second writer that read the same version loses: it must read again.
    expect(await record.write(start.version, { ...begun, since: 6 })).toBeUndefined();
    const done = advanced(begun, 'a', undefined, undefined);
    await record.write(version as number, done);
    expect((await record.cursor(plan)).cursor).toEqual({ ...done, since: undefined });
  });

  it('starts over once its life has passed, and never counts an earlier plan’s cursor in the new plan', async () => {
    let now = 0;
    const store = new MemorySessionStore();
    const record = new BroadcastRecord(store, 'b', () => now, 1000);
    const old = await record.plan(FP, boards('a', 'b'), false);
    now = 900;
    const { version } = await record.cursor(old);
    await record.write(version, advanced((await record.cursor(old)).cursor, 'a', undefined, undefined));
    // The plan expires at 1000, the cursor (written at 900) at 1900.
    now = 1000;
    const fresh = await record.plan(FP, boards('c'), false);
    expect(fresh.planId).not.toBe(old.planId);
    expect(fresh.boards).toEqual(['c']);
    expect((await record.cursor(fresh)).cursor).toMatchObject({ next: 0, sent: 0 });
  });
});

describe('advanced', () => {
  const start: BroadcastCursor = { planId: 'p', next: 0, since: 1, sent: 0, failed: 0, failures: [] };

  it('counts a sent board, moves past it, and carries when the next send begins', () => {
    expect(advanced(start, 'a', undefined, 7)).toEqual({ ...start, next: 1, since: 7, sent: 1 });
  });

  it('counts every refused board and lists the first ones only', () => {
    let cursor = start;
    for (let i = 0; i < MAX_KEPT_FAILURES + 5; i++) cursor = advanced(cursor, `board-${i}`, 'unknown_board', undefined);
    expect(cursor.failed).toBe(MAX_KEPT_FAILURES + 5);
    expect(cursor.failures).toHaveLength(MAX_KEPT_FAILURES);
    expect(cursor.failures[0]).toEqual({ boardId: 'board-0', code: 'unknown_board' });
    expect(cursor.next).toBe(MAX_KEPT_FAILURES + 5);
  });
});

describe('fingerprintOf', () => {
  it('is the same for the same message whatever the order of its keys, and differs for another', () => {
    const a = { content: 'x', embeds: [{ title: 't', description: 'd' }] };
    const b = { embeds: [{ description: 'd', title: 't' }], content: 'x' };
    expect(fingerprintOf(a)).toBe(fingerprintOf(b));
    expect(fingerprintOf({ content: 'y' })).not.toBe(fingerprintOf({ content: 'x' }));
  });
});
