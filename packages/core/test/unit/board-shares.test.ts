import { BoardShares, boardShareOf } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

// Issue 40, finding 4: each board's share of the intake bound (docs/production.md, "Backpressure").

const aside = (seq: number) => ({ id: `m${seq}`, seq });

describe('BoardShares', () => {
  it('lets a board past its share while the intake is not contended, and sets aside past it once it is', () => {
    const shares = new BoardShares(2, 10);
    for (let i = 0; i < 5; i++) shares.add('a');
    // 5 held by the board, 5 in all: below the contended mark, nothing waits.
    expect(shares.full('a', 5)).toBe(false);
    // 10 in all: the board holds more than its share, another board holds none.
    expect(shares.full('a', 10)).toBe(true);
    expect(shares.full('b', 10)).toBe(false);
    shares.add('b');
    expect(shares.full('b', 11)).toBe(false);
    shares.add('b');
    expect(shares.full('b', 12)).toBe(true);
  });

  it('keeps a board setting aside behind its first set-aside message, whatever the counts, until it is read back', () => {
    const shares = new BoardShares(2, 0);
    shares.add('a');
    shares.add('a');
    expect(shares.setAside('a', aside(3))).toBe(true);
    expect(shares.setAside('a', aside(4))).toBe(false);
    shares.done('a');
    // Room again by the counts, but a message set aside waits: the next one goes behind it.
    expect(shares.full('a', 0)).toBe(true);
  });

  it('reads back once the board is down to half its share, oldest first, as many as it has room for', () => {
    const shares = new BoardShares(4, 0);
    for (let i = 0; i < 4; i++) shares.add('a');
    for (let seq = 5; seq <= 10; seq++) shares.setAside('a', aside(seq));
    expect(shares.done('a')).toBe(false);
    expect(shares.next('a', 100)).toBeUndefined();
    // 2 held: half of 4.
    expect(shares.done('a')).toBe(true);
    expect(shares.next('a', 100)).toEqual([aside(5), aside(6)]);
    // One read-back at a time: the board reads already.
    expect(shares.next('a', 100)).toBeUndefined();
    expect(shares.full('a', 0)).toBe(true);
    expect(shares.read('a', 2)).toBe(false);
    shares.add('a');
    shares.add('a');
    shares.done('a');
    shares.done('a');
    shares.done('a');
    // 1 held: room for 3, at most `most`.
    expect(shares.next('a', 2)).toEqual([aside(7), aside(8)]);
    shares.failed('a');
    // A failed read-back leaves its messages set aside, first in line.
    expect(shares.next('a', 100)).toEqual([aside(7), aside(8), aside(9)]);
    expect(shares.read('a', 3)).toBe(false);
    expect(shares.next('a', 100)).toEqual([aside(10)]);
    // The last one read back: the board takes new messages again.
    expect(shares.read('a', 1)).toBe(true);
    shares.done('a');
    expect(shares.full('a', 0)).toBe(false);
  });

  it('is a tenth of maxPendingEvents, at least one event', () => {
    expect(boardShareOf(1_000)).toBe(100);
    expect(boardShareOf(2)).toBe(1);
  });
});
