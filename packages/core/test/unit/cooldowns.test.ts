import { Cooldowns } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

describe('Cooldowns', () => {
  it('allows `uses` per sliding window and says how long to wait', () => {
    let now = 1000;
    const c = new Cooldowns(() => now);
    const cd = { ms: 10_000, uses: 2, per: 'user' as const };
    expect(c.take('k', cd, 'use-1')).toBe(0);
    now += 1000;
    expect(c.take('k', cd, 'use-2')).toBe(0);
    now += 1000;
    expect(c.take('k', cd, 'use-3')).toBe(8000);
    now += 8000;
    expect(c.take('k', cd, 'use-4')).toBe(0);
  });

  it('keeps keys apart', () => {
    const c = new Cooldowns(() => 0);
    const cd = { ms: 1000, uses: 1, per: 'user' as const };
    expect(c.take('a', cd, 'use-5')).toBe(0);
    expect(c.take('b', cd, 'use-6')).toBe(0);
    expect(c.take('a', cd, 'use-7')).toBe(1000);
  });
});
