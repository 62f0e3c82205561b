import type { Clock } from '@boardbot/core';
import { Readiness } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

function manualClock(): Clock & { advance(ms: number): void } {
  let now = 1_000;
  return {
    now: () => now,
    setTimeout: () => undefined,
    clearTimeout: () => {},
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('the gateway check of readiness', () => {
  it('is not up before the gateway connected', () => {
    const r = new Readiness(manualClock(), 10_000);
    expect(r.gateway(undefined)).toBe(false);
    r.gatewayConnected();
    expect(r.gateway(undefined)).toBe(true);
  });

  it('stays up through a reconnect shorter than the grace period, and drops once it lasts longer', () => {
    const clock = manualClock();
    const r = new Readiness(clock, 10_000);
    r.gatewayConnected();
    r.gatewayReconnecting();
    clock.advance(9_999);
    expect(r.gateway(undefined)).toBe(true);
    // A second drop while reconnecting does not restart the grace period.
    r.gatewayReconnecting();
    clock.advance(1);
    expect(r.gateway(undefined)).toBe(false);
    r.gatewayConnected();
    expect(r.gateway(undefined)).toBe(true);
  });

  it('makes a replica that does not hold the gateway up when it consumes', () => {
    const r = new Readiness(manualClock(), 10_000);
    const consumer = { role: 'consumer', pending: 0, deadLettered: 0 } as const;
    expect(r.gateway({ ...consumer, consuming: true })).toBe(true);
    expect(r.gateway({ ...consumer, consuming: false })).toBe(false);
    expect(r.gateway({ ...consumer, role: 'reader', consuming: true })).toBe(false);
  });
});
