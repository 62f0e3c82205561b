import { parseHttpDate, readRateLimitReset, readRetryAfter } from '@boardbot/protocol/http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const REAL_NOW = Date.UTC(2026, 10, 21, 10, 0, 0);
const HOUR = 3_600_000;

describe('readRateLimitReset (CONTRACT "Tolerance")', () => {
  it('reads a small number as delta seconds, with decimals', () => {
    expect(readRateLimitReset('0.734', REAL_NOW)).toBe(734);
    expect(readRateLimitReset('1', REAL_NOW)).toBe(1000);
    expect(readRateLimitReset(' 2.5 ', REAL_NOW)).toBe(2500);
  });

  it('reads a number above 10^9 as epoch seconds and above 10^12 as epoch milliseconds', () => {
    expect(readRateLimitReset(String(REAL_NOW / 1000 + 1.5), REAL_NOW)).toBe(1500);
    expect(readRateLimitReset(String(REAL_NOW + 250), REAL_NOW)).toBe(250);
  });

  it('gives no value for garbage or an absent header, and a negative delay for a reset in the past', () => {
    for (const v of ['', 'soon', '1e3', 'NaN', 'Infinity', '0x10', '1,5', undefined, null])
      expect(readRateLimitReset(v, REAL_NOW)).toBeUndefined();
    expect(readRateLimitReset('-3', REAL_NOW)).toBe(-3000);
    expect(readRateLimitReset(String(REAL_NOW / 1000 - 10), REAL_NOW)).toBe(-10_000);
  });
});

describe('readRetryAfter', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(readRetryAfter('0', REAL_NOW)).toBe(0);
    expect(readRetryAfter(' 3 ', REAL_NOW)).toBe(3000);
    expect(readRetryAfter('120', REAL_NOW)).toBe(120_000);
    expect(readRetryAfter('Sat, 21 Nov 2026 10:00:05 GMT', REAL_NOW)).toBe(5000);
    expect(readRetryAfter(new Date(REAL_NOW + 30_000).toUTCString(), REAL_NOW)).toBe(30_000);
  });

  it('reads decimal and epoch numbers like a reset (CONTRACT "Tolerance")', () => {
    expect(readRetryAfter('1.5', REAL_NOW)).toBe(1500);
    expect(readRetryAfter(String(REAL_NOW / 1000 + 4), REAL_NOW)).toBe(4000);
  });

  it('gives a negative delay for a time in the past, and leaves its meaning to the caller', () => {
    expect(readRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', REAL_NOW)).toBe(-HOUR);
    expect(readRetryAfter('-5', REAL_NOW)).toBe(-5000);
  });

  it('gives no value for an absent header or junk', () => {
    for (const v of ['tomorrow', 'soon', '1 2', '', undefined, null])
      expect(readRetryAfter(v, REAL_NOW)).toBeUndefined();
  });
});

describe('parseHttpDate', () => {
  it('reads the three HTTP date forms, and refuses what only Date.parse would accept', () => {
    const at = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(at);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(at);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994 GMT')).toBe(at);
    for (const v of ['1', '2026', 'Sun, soon', '', null, undefined]) expect(parseHttpDate(v)).toBeUndefined();
  });
});

describe('reset and Retry-After with the clock moved an hour (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each([
    ['ahead', HOUR],
    ['behind', -HOUR],
  ])('with the clock an hour %s, delta resets are unaffected and epoch resets follow the same clock', (_name, shift) => {
    vi.setSystemTime(REAL_NOW + shift);
    const now = Date.now();
    expect(readRateLimitReset('0.734', now)).toBe(734);
    // A server on the same (moved) clock sends its reset as epoch seconds or milliseconds.
    expect(readRateLimitReset(((now + 900) / 1000).toFixed(3), now)).toBe(900);
    expect(readRateLimitReset(String(now + 900), now)).toBe(900);
  });

  it.each([
    ['ahead', HOUR],
    ['behind', -HOUR],
  ])('with only the client clock an hour %s, epoch resets and dates are read against the server Date', (_name, shift) => {
    vi.setSystemTime(REAL_NOW + shift);
    const serverDate = new Date(REAL_NOW).toUTCString();
    const reset = String(REAL_NOW / 1000 + 2);
    expect(readRateLimitReset(reset, Date.now(), serverDate)).toBe(2000);
    expect(readRetryAfter(reset, Date.now(), serverDate)).toBe(2000);
    expect(readRetryAfter(new Date(REAL_NOW + 5000).toUTCString(), Date.now(), serverDate)).toBe(5000);
    // A delta needs no server time, and without the server's Date the skew shows up as is.
    expect(readRateLimitReset('2', Date.now(), serverDate)).toBe(2000);
    expect(readRateLimitReset(reset, Date.now())).toBe(2000 - shift);
    // An unreadable Date falls back to the client's clock.
    expect(readRateLimitReset(reset, Date.now(), 'garbage')).toBe(2000 - shift);
  });
});
