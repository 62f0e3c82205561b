import { SeqsInFlight } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

describe('SeqsInFlight', () => {
  it('names the lowest seq still in flight, whatever order they finish in', () => {
    const seqs = new SeqsInFlight();
    for (const seq of [3, 4, 5, 6]) seqs.add(seq);
    seqs.remove(5);
    seqs.remove(4);
    expect(seqs.lowest).toBe(3);
    seqs.remove(3);
    // 4 and 5 finished before 3: the lowest in flight is 6.
    expect(seqs.lowest).toBe(6);
    seqs.remove(6);
    expect(seqs.lowest).toBeUndefined();
  });

  it('takes a seq below those in flight (a backfill) in its place', () => {
    const seqs = new SeqsInFlight();
    seqs.add(10);
    seqs.add(11);
    seqs.add(7);
    expect(seqs.lowest).toBe(7);
    seqs.remove(7);
    expect(seqs.lowest).toBe(10);
  });

  it('stays right over a long run that finishes in order', () => {
    const seqs = new SeqsInFlight();
    for (let seq = 1; seq <= 5000; seq++) seqs.add(seq);
    for (let seq = 1; seq <= 4999; seq++) seqs.remove(seq);
    expect(seqs.lowest).toBe(5000);
    seqs.add(5001);
    seqs.remove(5000);
    expect(seqs.lowest).toBe(5001);
  });
});
