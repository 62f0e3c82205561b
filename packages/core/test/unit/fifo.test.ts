import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/kernel/fifo.js';

describe('Fifo', () => {
  it('gives its items back first in, first out, across the compaction of its front', () => {
    const line = new Fifo<number>();
    const out: number[] = [];
    for (let i = 0; i < 5000; i++) {
      line.push(i);
      if (i % 3 === 2) out.push(line.shift() as number, line.shift() as number);
    }
    while (line.size > 0) out.push(line.shift() as number);
    expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(line.shift()).toBeUndefined();
    expect(line.peek()).toBeUndefined();
    expect(line.last()).toBeUndefined();
  });

  it('keeps no reference to an item it gave back', () => {
    const line = new Fifo<object>();
    for (let i = 0; i < 10; i++) line.push({ i });
    line.shift();
    line.shift();
    const { items } = line as unknown as { items: unknown[] };
    expect(items.filter((item) => item !== undefined)).toHaveLength(8);
  });

  it('inserts in order from the back, and keeps or drains what is left', () => {
    const line = new Fifo<number>();
    for (const n of [1, 3, 5, 7]) line.push(n);
    line.shift();
    line.insert(4, (queued) => queued > 4);
    line.insert(0, (queued) => queued > 0);
    line.insert(9, (queued) => queued > 9);
    expect(line.peek()).toBe(0);
    expect(line.last()).toBe(9);
    line.retain((n) => n % 2 === 1);
    expect(line.drain()).toEqual([3, 5, 7, 9]);
    expect(line.size).toBe(0);
  });
});
