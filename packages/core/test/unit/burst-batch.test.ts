import { BurstBatch } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

// Issue 40, finding 4: a burst's cap (docs/listening-to-messages.md, "Bursts").

/** A held message: its name, and whether its event was released. */
const held = (name: string) => {
  const entry = { name, released: false, release: () => (entry.released = true) };
  return entry;
};

describe('BurstBatch', () => {
  it('keeps its first message and the newest ones past its cap, releasing the others unread and counting them', () => {
    const batch = new BurstBatch<ReturnType<typeof held>>(3);
    const all = Array.from({ length: 6 }, (_, i) => held(`m${i + 1}`));
    const released = all.map((entry) => batch.add(entry));
    expect(released).toEqual([0, 0, 0, 1, 1, 1]);
    expect(batch.entries.map((e) => e.name)).toEqual(['m1', 'm5', 'm6']);
    expect(batch.over).toBe(3);
    expect(all.filter((e) => e.released).map((e) => e.name)).toEqual(['m2', 'm3', 'm4']);
  });

  it("puts a cancelled run's batch in front, within the cap, with its count", () => {
    const cancelled = new BurstBatch<ReturnType<typeof held>>(3);
    for (const name of ['a1', 'a2', 'a3', 'a4']) cancelled.add(held(name));
    const newer = new BurstBatch<ReturnType<typeof held>>(3);
    newer.add(held('b1'));
    expect(newer.prepend(cancelled)).toBe(1);
    expect(newer.entries.map((e) => e.name)).toEqual(['a1', 'a4', 'b1']);
    expect(newer.over).toBe(2);
  });
});
