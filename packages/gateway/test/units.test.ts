import { ready } from '@boardbot/test-support';
import { TestClock } from '@boardbot/testing/clock';
import { describe, expect, it } from 'vitest';
import { compareEventIds, isDuplicateId } from '../src/events/event-id.js';
import { ResumePoint } from '../src/events/resume-point.js';
import { TrailingCrResolver } from '../src/transport/trailing-cr-resolver.js';
import { KeepAliveWatchdog } from '../src/watchdog/keep-alive-watchdog.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('KeepAliveWatchdog', () => {
  it('fires after the timeout of silence, and any activity pushes it back', () => {
    const clock = new TestClock(0);
    let fired = 0;
    const dog = new KeepAliveWatchdog(35_000, clock, () => fired++);
    dog.start();
    clock.advance(20_000);
    dog.touch(); // a `: keep-alive` comment
    clock.advance(20_000);
    expect(fired).toBe(0);
    clock.advance(14_999);
    expect(fired).toBe(0);
    clock.advance(1);
    expect(fired).toBe(1);
    expect(clock.pending).toBe(0);
  });

  it('leaves no timer after stop()', () => {
    const clock = new TestClock(0);
    let fired = 0;
    const dog = new KeepAliveWatchdog(1000, clock, () => fired++);
    dog.start();
    dog.stop();
    expect(clock.pending).toBe(0);
    clock.advance(5000);
    expect(fired).toBe(0);
  });
});

describe('TrailingCrResolver', () => {
  it('completes a chunk-final CR and drops the LF that may follow', () => {
    const crs = new TrailingCrResolver();
    const text = (u: Uint8Array) => new TextDecoder().decode(u);
    expect(text(crs.resolve(bytes('a\r')))).toBe('a\r\n');
    expect(text(crs.resolve(bytes('\nb\n')))).toBe('b\n');
    expect(text(crs.resolve(bytes('c\r')))).toBe('c\r\n');
    expect(text(crs.resolve(bytes('d')))).toBe('d');
  });
});

describe('event ids and the resume point', () => {
  it('compares decimal ids of any length, and gives up on opaque ones', () => {
    expect(compareEventIds('9', '10')).toBeLessThan(0);
    expect(compareEventIds('12345678901234567890', '12345678901234567891')).toBeLessThan(0);
    expect(compareEventIds('007', '7')).toBe(0);
    expect(compareEventIds('abc', '1')).toBeUndefined();
    expect(isDuplicateId('5', '5')).toBe(true);
    expect(isDuplicateId('4', '5')).toBe(true);
    expect(isDuplicateId('6', '5')).toBe(false);
    expect(isDuplicateId('x', 'x')).toBe(true);
    expect(isDuplicateId('y', 'x')).toBe(false);
    expect(isDuplicateId('', '5')).toBe(false);
  });

  it('keeps its point on a resumed ready and resets it on a fresh one', () => {
    const point = new ResumePoint('10');
    point.ready(ready({ resumed: true }), '99');
    expect(point.id).toBe('10');
    expect(point.admit('11')).toBe('accept');
    expect(point.admit('11')).toBe('duplicate');
    point.ready(ready({ resumed: false, gap: true }), '500');
    expect(point.id).toBe('500');
    expect(point.admit('3')).toBe('duplicate');
    expect(point.admit('501')).toBe('accept');
  });
});
