import { type Class, readMetadataList } from '../kernel/metadata.js';
import {
  DEFAULT_SCHEDULE_OPTIONS,
  type MissedTicks,
  type OverlappingTicks,
  SCHEDULES_KEY,
  type ScheduleMetadata,
} from './metadata.js';
import { type TickTimes, tickTimes } from './tick-times.js';

/** One schedule of a handler class, checked and ready to run. */
export interface ScheduleDescription {
  method: string;
  /** Names the schedule in its claims and logs. */
  name: string;
  times: TickTimes;
  missed: MissedTicks;
  overlap: OverlappingTicks;
}

/**
 * Reads the `@Every` and `@Cron` methods of a class; a bad cron expression or time zone fails here,
 * so in `createBot`.
 *
 * @param cls - a handler class
 * @throws InvalidScheduleError when a cron expression or time zone is not valid
 */
export function describeSchedules(cls: Class): ScheduleDescription[] {
  return readMetadataList<ScheduleMetadata>(SCHEDULES_KEY, cls).map(({ method, timing, options }) => {
    const name = options.name ?? `${cls.name}.${method}`;
    return {
      method,
      name,
      times: tickTimes(timing, name),
      missed: options.missed ?? DEFAULT_SCHEDULE_OPTIONS.missed,
      overlap: options.overlap ?? DEFAULT_SCHEDULE_OPTIONS.overlap,
    };
  });
}
