import { appendMetadata } from '../kernel/metadata.js';
import { type CronOptions, SCHEDULES_KEY, type ScheduleMetadata } from './metadata.js';

/**
 * Runs the method at the times of a cron expression (five fields, or six with seconds first; read by
 * `croner`), in `timezone`. Each tick runs once across every instance of the bot. The expression is
 * checked by `createBot`, which fails with `BOARDBOT_INVALID_SCHEDULE` on a bad one.
 *
 * @param pattern - the cron expression, e.g. `'0 9 * * 1-5'` (9:00 on weekdays)
 * @param options - time zone, name, missed and overlap policies
 * @example
 * class Standup {
 *   @Cron('0 9 * * 1-5', { timezone: 'Europe/Berlin' })
 *   async remind(ctx: ScheduleContext) { ... }
 * }
 */
export function Cron(pattern: string, options: CronOptions = {}) {
  return (target: object, method: string | symbol, _descriptor?: PropertyDescriptor): void => {
    const { timezone, ...rest } = options;
    const entry: ScheduleMetadata = { method: String(method), timing: { cron: pattern, timezone }, options: rest };
    appendMetadata(SCHEDULES_KEY, entry, target.constructor);
  };
}
