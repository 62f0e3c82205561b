import { Progress } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

describe('Progress', () => {
  it('moves the event mark over an unbroken prefix of finished events only', () => {
    const p = new Progress(undefined);
    const [a, b, c] = ['1', '2', '3'].map((id) => p.begin(id));
    p.finish(b as never);
    p.finish(c as never);
    // 1 is still in a handler: a crash now must deliver 1 (and 2, 3) again.
    expect(p.lastEventId).toBeUndefined();
    p.finish(a as never);
    expect(p.lastEventId).toBe('3');
  });

  it('starts from the stored position and counts a change only when a mark moves', () => {
    const p = new Progress({ eventId: '10', boards: { b: 4 }, savedAt: 0 });
    expect(p.lastEventId).toBe('10');
    const v = p.version;
    p.finish(p.begin(undefined));
    expect(p.version).toBe(v);
    p.finish(p.begin('11', { id: 'b', seq: 5 }));
    expect(p.version).toBeGreaterThan(v);
    expect(p.snapshot(42)).toEqual({ eventId: '11', boards: { b: 5 }, savedAt: 42 });
  });

  it('holds the event mark behind work without an id (a backfill) until it finishes', () => {
    const p = new Progress({ eventId: '5', boards: {}, savedAt: 0 });
    const barrier = p.begin(undefined);
    p.finish(p.begin('9'));
    expect(p.lastEventId).toBe('5');
    p.finish(barrier);
    expect(p.lastEventId).toBe('9');
  });

  it("keeps a board's mark below its lowest seq in flight, whatever finished above it", () => {
    const p = new Progress({ eventId: undefined, boards: { b: 100 }, savedAt: 0 });
    const live = p.begin('1', { id: 'b', seq: 105 });
    // A backfill inserts older messages below the live one.
    const older = [101, 102, 103, 104].map((seq) => p.begin(undefined, { id: 'b', seq }));
    p.finish(live);
    expect(p.boards.get('b')).toBe(100);
    for (const t of older.slice(0, 2)) p.finish(t);
    expect(p.boards.get('b')).toBe(102);
    for (const t of older.slice(2)) p.finish(t);
    expect(p.boards.get('b')).toBe(105);
    expect(p.handled('b', 105)).toBe(true);
    expect(p.handled('b', 106)).toBe(false);
  });

  it('never moves a board mark backwards', () => {
    const p = new Progress({ eventId: undefined, boards: { b: 50 }, savedAt: 0 });
    p.finish(p.begin('1', { id: 'b', seq: 7 }));
    expect(p.boards.get('b')).toBe(50);
  });

  it('keeps its line short over a long run', () => {
    const p = new Progress(undefined);
    for (let i = 1; i <= 5000; i++) p.finish(p.begin(String(i)));
    expect(p.pending).toBe(0);
    expect(p.lastEventId).toBe('5000');
  });

  it('counts nothing that ends after halt(): a run abandoned at shutdown stays above the resume point', () => {
    const p = new Progress({ eventId: '4', boards: { b: 1 }, savedAt: 0 });
    p.finish(p.begin('5', { id: 'b', seq: 2 }));
    const abandoned = p.begin('6', { id: 'b', seq: 3 });
    const v = p.version;
    p.halt();
    p.finish(abandoned);
    expect(p.version).toBe(v);
    expect(p.snapshot(0)).toEqual({ eventId: '5', boards: { b: 2 }, savedAt: 0 });
  });
});
