import { clampDelay, parseResetDelay, parseRetryAfter } from '@boardbot/rest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const REAL_NOW = Date.UTC(2026, 10, 21, 10, 0, 0);
const HOUR = 3_600_000;

describe('reset parsing (CONTRACT "Tolerance")', () => {
  it('reads a small number as delta seconds, with decimals', () => {
    expect(parseResetDelay('0.734', REAL_NOW)).toBe(734);
    expect(parseResetDelay('1', REAL_NOW)).toBe(1000);
    expect(parseResetDelay(' 2.5 ', REAL_NOW)).toBe(2500);
  });

  it('reads a number above 10^9 as epoch seconds and above 10^12 as epoch milliseconds', () => {
    expect(parseResetDelay(String(REAL_NOW / 1000 + 1.5), REAL_NOW)).toBe(1500);
    expect(parseResetDelay(String(REAL_NOW + 250), REAL_NOW)).toBe(250);
  });

  it('gives no value for garbage, and a negative delay for a reset in the past', () => {
    for (const v of ['', 'soon', '1e3', 'NaN', 'Infinity', '0x10', '1,5', undefined])
      expect(parseResetDelay(v, REAL_NOW)).toBeUndefined();
    expect(parseResetDelay('-3', REAL_NOW)).toBe(-3000);
    expect(parseResetDelay(String(REAL_NOW / 1000 - 10), REAL_NOW)).toBe(-10_000);
  });

  it('reads Retry-After as seconds or an HTTP date, and nothing else', () => {
    expect(parseRetryAfter('0', REAL_NOW)).toBe(0);
    expect(parseRetryAfter('120', REAL_NOW)).toBe(120_000);
    expect(parseRetryAfter(new Date(REAL_NOW + 30_000).toUTCString(), REAL_NOW)).toBe(30_000);
    expect(parseRetryAfter('tomorrow', REAL_NOW)).toBeUndefined();
    expect(parseRetryAfter('1 2', REAL_NOW)).toBeUndefined();
  });

  it('clamps negative and absurd waits', () => {
    expect(clampDelay(-5, 1000)).toBe(0);
    expect(clampDelay(Number.NaN, 1000)).toBe(0);
    expect(clampDelay(2 * 24 * HOUR, 60_000)).toBe(60_000);
    expect(clampDelay(500, 60_000)).toBe(500);
  });
});

describe('reset parsing with the clock moved an hour (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each([
    ['ahead', HOUR],
    ['behind', -HOUR],
  ])('with the clock an hour %s, delta resets are unaffected and epoch resets follow the same clock', (_name, shift) => {
    vi.setSystemTime(REAL_NOW + shift);
    const now = Date.now();
    expect(parseResetDelay('0.734', now)).toBe(734);
    // A server on the same (moved) clock sends its reset as epoch seconds or milliseconds.
    expect(parseResetDelay(((now + 900) / 1000).toFixed(3), now)).toBe(900);
    expect(parseResetDelay(String(now + 900), now)).toBe(900);
  });

  it.each([
    ['ahead', HOUR],
    ['behind', -HOUR],
  ])('with only the client clock an hour %s, epoch resets are read against the server Date', (_name, shift) => {
    vi.setSystemTime(REAL_NOW + shift);
    const serverNow = REAL_NOW;
    const reset = String(serverNow / 1000 + 2);
    expect(parseResetDelay(reset, Date.now(), () => serverNow)).toBe(2000);
    expect(parseRetryAfter(new Date(serverNow + 5000).toUTCString(), Date.now(), () => serverNow)).toBe(5000);
    // Without the server's Date the skew shows up as is, and callers clamp it.
    const skewed = parseResetDelay(reset, Date.now()) as number;
    expect(skewed).toBe(2000 - shift);
    expect(clampDelay(skewed, 60_000)).toBe(shift > 0 ? 0 : 60_000);
  });
});
