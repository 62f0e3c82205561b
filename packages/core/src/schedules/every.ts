import { InvalidScheduleError } from '../errors.js';
import { appendMetadata } from '../kernel/metadata.js';
import { SCHEDULES_KEY, type ScheduleMetadata, type ScheduleOptions } from './metadata.js';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const INTERVAL = /^(\d+)(ms|s|m|h|d)$/;

/**
 * An interval as milliseconds: a number of milliseconds, or a count and a unit (`'30s'`, `'10m'`,
 * `'1h'`, `'1d'`).
 *
 * @param interval - the interval
 * @throws InvalidScheduleError when it is not a positive whole interval
 */
export function intervalMs(interval: string | number): number {
  const match = typeof interval === 'string' ? INTERVAL.exec(interval.trim()) : undefined;
  const ms =
    typeof interval === 'number'
      ? interval
      : match
        ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]
        : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 1000) {
    throw new InvalidScheduleError(
      `@Every(${JSON.stringify(interval)})`,
      "give a whole interval of at least one second: milliseconds, or a count and a unit ('30s', '10m', '1h', '1d')",
    );
  }
  return ms;
}

/**
 * Runs the method every `interval`, at times aligned on the epoch (`'10m'` ticks at :00, :10, :20...),
 * so every instance of the bot agrees on each tick, and each tick runs once across them. The handler
 * class is built like any other (constructor injection).
 *
 * @param interval - milliseconds, or a count and a unit: `'30s'`, `'10m'`, `'1h'`, `'1d'`
 * @param options - name, missed and overlap policies
 * @example
 * class Cleanup {
 *   @Every('10m')
 *   async sweep(ctx: ScheduleContext) { ... }
 * }
 */
export function Every(interval: string | number, options: ScheduleOptions = {}) {
  const everyMs = intervalMs(interval);
  return (target: object, method: string | symbol, _descriptor?: PropertyDescriptor): void => {
    const entry: ScheduleMetadata = { method: String(method), timing: { everyMs }, options };
    appendMetadata(SCHEDULES_KEY, entry, target.constructor);
  };
}
