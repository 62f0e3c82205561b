import { silentLogger } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';
import { BotMetrics } from '../../src/health/bot-metrics.js';
import { Backpressure, intakeBound } from '../../src/runtime/intake/backpressure.js';

function marks(high: number, low: number) {
  const heard: string[] = [];
  const bp = new Backpressure(high, low, {
    paused: (n) => heard.push(`paused ${n}`),
    resumed: (n) => heard.push(`resumed ${n}`),
  });
  return { bp, heard };
}

describe('the intake bound (Backpressure)', () => {
  it('closes the gate at the high-water mark and opens it only at the low-water mark', async () => {
    const { bp, heard } = marks(4, 2);
    for (let i = 0; i < 3; i++) bp.add();
    expect(bp.gate()).toBeUndefined();
    bp.add();
    const gate = bp.gate();
    expect(gate).toBeInstanceOf(Promise);
    expect(bp.paused).toBe(true);
    let opened = false;
    void gate?.then(() => {
      opened = true;
    });
    bp.add(); // past the mark (the rest of a chunk): still one pause
    bp.done();
    bp.done(); // 3 held: between the marks, still paused
    await Promise.resolve();
    expect(opened).toBe(false);
    expect(bp.gate()).toBe(gate);
    bp.done(); // 2 held: the low-water mark
    await gate;
    expect(bp.paused).toBe(false);
    expect(bp.gate()).toBeUndefined();
    expect(heard).toEqual(['paused 4', 'resumed 2']);
  });

  it('pauses again when the count climbs back to the high-water mark', () => {
    const { bp, heard } = marks(3, 1);
    for (let i = 0; i < 3; i++) bp.add();
    bp.done();
    bp.done();
    bp.add();
    expect(bp.paused).toBe(false);
    bp.add();
    expect(bp.paused).toBe(true);
    expect(heard).toEqual(['paused 3', 'resumed 1', 'paused 3']);
  });

  it('takes a measured count (a shared backlog) with the same marks, both ways', async () => {
    const { bp, heard } = marks(10, 5);
    bp.measure(9);
    expect(bp.paused).toBe(false);
    bp.measure(12);
    const gate = bp.gate();
    expect(bp.paused).toBe(true);
    bp.measure(6); // between the marks: still paused
    expect(bp.gate()).toBe(gate);
    bp.measure(5);
    await gate;
    expect(bp.paused).toBe(false);
    expect(bp.count).toBe(5);
    expect(heard).toEqual(['paused 12', 'resumed 5']);
  });

  it('opens the gate on release (the connection closes), whatever the count', async () => {
    const { bp } = marks(2, 0);
    bp.add();
    bp.add();
    const gate = bp.gate();
    bp.release();
    await gate;
    expect(bp.gate()).toBeUndefined();
    bp.release(); // twice is harmless
  });
});

describe('the intake bound in the metrics', () => {
  it('counts each pause and says whether the gateway is paused now', async () => {
    const metrics = new BotMetrics(
      { pending: () => 0, inFlight: () => 0, ready: async () => true, replica: async () => undefined },
      () => undefined,
    );
    const bp = intakeBound({ log: silentLogger, telemetry: { metrics } }, 2);
    bp.add();
    bp.add();
    expect(await metrics.render()).toMatch(/^boardbot_intake_pauses_total 1$/m);
    expect(await metrics.render()).toMatch(/^boardbot_intake_paused 1$/m);
    bp.done();
    bp.done();
    expect(await metrics.render()).toMatch(/^boardbot_intake_paused 0$/m);
  });
});
