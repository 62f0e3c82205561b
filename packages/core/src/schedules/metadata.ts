import { metadataKey } from '../kernel/metadata.js';

/** `@Every` and `@Cron` methods of a handler class. */
export const SCHEDULES_KEY = metadataKey('schedules');

/** What a tick missed while no instance of the bot ran does on start. */
export type MissedTicks = 'latest' | 'skip';

/** What a tick due while the schedule's previous tick still runs does. */
export type OverlappingTicks = 'skip' | 'run';

/** Options of `@Every` and `@Cron`. */
export interface ScheduleOptions {
  /**
   * Names the schedule in its claims (store keys) and logs; keep it when you rename the class or
   * the method, or its ticks will be claimed anew. @defaultValue `Class.method`
   */
  name?: string;
  /**
   * Ticks that fell due while no instance of the bot ran: `'latest'` runs the latest one once, on
   * start; `'skip'` runs none. @defaultValue `'latest'`
   */
  missed?: MissedTicks;
  /**
   * A tick that falls due while the previous tick of the schedule still runs (in this process or
   * another): `'skip'` skips it (and logs so); `'run'` runs it beside the previous one.
   * @defaultValue `'skip'`
   */
  overlap?: OverlappingTicks;
}

/** Options of `@Cron`. */
export interface CronOptions extends ScheduleOptions {
  /**
   * The IANA time zone the expression is read in (`'Europe/Berlin'`); daylight-saving changes follow
   * it. @defaultValue the process's time zone
   */
  timezone?: string;
}

/** When a schedule ticks: every `everyMs` (aligned on the epoch), or on a cron expression. */
export type ScheduleTiming = { everyMs: number } | { cron: string; timezone: string | undefined };

/** One scheduled method, as its decorator recorded it. */
export interface ScheduleMetadata {
  method: string;
  timing: ScheduleTiming;
  options: ScheduleOptions;
}

/** Defaults of {@link ScheduleOptions} that have a plain value. */
export const DEFAULT_SCHEDULE_OPTIONS = {
  missed: 'latest',
  overlap: 'skip',
} as const satisfies Required<Pick<ScheduleOptions, 'missed' | 'overlap'>>;
