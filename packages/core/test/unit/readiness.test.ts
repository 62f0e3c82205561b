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

const ready = (r: Readiness) => Object.values(r.checks(undefined)).every(Boolean);

describe('readiness', () => {
  it('is not ready before the commands are synced and the gateway connected', () => {
    const r = new Readiness(manualClock(), 10_000);
    expect(ready(r)).toBe(false);
    r.commandsSynced();
    expect(r.checks(undefined)).toEqual({ gateway: false, commands: true, running: true });
    r.gatewayConnected();
    expect(ready(r)).toBe(true);
  });

  it('stays ready through a reconnect shorter than the grace period, and drops once it lasts longer', () => {
    const clock = manualClock();
    const r = new Readiness(clock, 10_000);
    r.commandsSynced();
    r.gatewayConnected();
    r.gatewayReconnecting();
    clock.advance(9_999);
    expect(ready(r)).toBe(true);
    // A second drop while reconnecting does not restart the grace period.
    r.gatewayReconnecting();
    clock.advance(1);
    expect(r.checks(undefined).gateway).toBe(false);
    r.gatewayConnected();
    expect(ready(r)).toBe(true);
  });

  it('is not ready from the first moment of a stop', () => {
    const r = new Readiness(manualClock(), 10_000);
    r.commandsSynced();
    r.gatewayConnected();
    r.stopStarted();
    expect(r.checks(undefined)).toEqual({ gateway: true, commands: true, running: false });
  });

  it('makes a replica that does not hold the gateway ready when it consumes', () => {
    const r = new Readiness(manualClock(), 10_000);
    r.commandsSynced();
    const consumer = { role: 'consumer', pending: 0, deadLettered: 0 } as const;
    expect(r.checks({ ...consumer, consuming: true }).gateway).toBe(true);
    expect(r.checks({ ...consumer, consuming: false }).gateway).toBe(false);
    expect(r.checks({ ...consumer, role: 'reader', consuming: true }).gateway).toBe(false);
  });
});
