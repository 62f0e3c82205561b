// The soaks' verdicts (scripts/soak/stats.mjs) on made-up heap curves: the rule for one process, and
// the run's verdict from the processes that lived its window.
import { describe, expect, it } from 'vitest';
import { leakVerdict, runVerdict } from '../../scripts/soak/stats.mjs';

/** Samples every 20 s over `minutes`, the heap `base + slope × minute` plus a fixed wobble. */
const curve = (minutes: number, slope: number, base = 20) =>
  Array.from({ length: minutes * 3 + 1 }, (_, i) => ({
    minute: i / 3,
    heapMb: base + slope * (i / 3) + (i % 2 === 0 ? 0.05 : -0.05),
  }));

describe('leakVerdict', () => {
  it('says "leak" for a steady climb well beyond the noise, over the last 20 minutes', () => {
    const v = leakVerdict(curve(60, 0.05), 60);
    expect(v).toMatchObject({ windowMinutes: 20, verdict: 'leak' });
    expect(v.slopeMbPerMinute).toBeCloseTo(0.05, 3);
  });

  it('says "no leak" for a flat heap, and for a climb that stopped before the window', () => {
    expect(leakVerdict(curve(60, 0), 60).verdict).toBe('no leak');
    const warmed = curve(60, 0).map((s) => ({ ...s, heapMb: s.heapMb + Math.min(s.minute, 30) * 0.1 }));
    expect(leakVerdict(warmed, 60).verdict).toBe('no leak');
  });
});

describe('runVerdict', () => {
  const memory = [
    { replica: 'r0', lifeMinutes: 60, verdict: 'no leak' },
    { replica: 'r1', lifeMinutes: 60, verdict: 'no leak' },
    { replica: 'r3', lifeMinutes: 4.7, verdict: 'leak' },
    { replica: 'r15', lifeMinutes: 2.3, verdict: 'leak' },
  ];

  it('is the verdict of the processes that lived the 20-minute window, not of the warm-ups', () => {
    expect(runVerdict(memory, 60)).toEqual({ windowMinutes: 20, judged: ['r0', 'r1'], verdict: 'no leak' });
  });

  it('says "leak" when one process that lived the window leaks', () => {
    const leaking = [...memory, { replica: 'r2', lifeMinutes: 59.9, verdict: 'leak' }];
    expect(runVerdict(leaking, 60)).toEqual({ windowMinutes: 20, judged: ['r0', 'r1', 'r2'], verdict: 'leak' });
  });

  it('takes the whole run as the window when the run is shorter, and says when no process lived it', () => {
    expect(runVerdict(memory, 3)).toEqual({ windowMinutes: 3, judged: ['r0', 'r1', 'r3'], verdict: 'leak' });
    expect(runVerdict(memory.slice(2), 60)).toEqual({ windowMinutes: 20, judged: [], verdict: 'too short to say' });
  });
});
