import { Cron } from 'croner';
import { InvalidScheduleError } from '../errors.js';
import type { ScheduleTiming } from './metadata.js';

/** The tick times of a schedule (epoch milliseconds), computed the same way by every instance. */
export interface TickTimes {
  /** The first tick strictly after `time`, or undefined when there is none. */
  after(time: number): number | undefined;
  /** The last tick at or before `time`, or undefined when there is none. */
  atOrBefore(time: number): number | undefined;
}

/**
 * The tick times of a timing: multiples of the interval since the epoch, or the times of the cron
 * expression in its time zone (read by croner, which also gives the daylight-saving rules: a time
 * skipped by a spring-forward runs at the first valid time after it, a time repeated by a fall-back
 * runs once).
 *
 * @param timing - the schedule's timing
 * @param label - names the schedule in the error
 * @throws InvalidScheduleError when the cron expression or the time zone is not valid
 */
export function tickTimes(timing: ScheduleTiming, label: string): TickTimes {
  if ('everyMs' in timing) {
    const every = timing.everyMs;
    return {
      after: (time) => (Math.floor(time / every) + 1) * every,
      atOrBefore: (time) => Math.floor(time / every) * every,
    };
  }
  let cron: Cron;
  try {
    cron = new Cron(timing.cron, { paused: true, ...(timing.timezone ? { timezone: timing.timezone } : {}) });
    // A bad time zone shows only when a time is computed.
    cron.nextRun(new Date(0));
  } catch (error) {
    throw new InvalidScheduleError(
      `${label}: @Cron(${JSON.stringify(timing.cron)}${timing.timezone ? `, { timezone: ${JSON.stringify(timing.timezone)} }` : ''})`,
      `give a cron expression of five fields (minute hour day month weekday, e.g. '0 9 * * 1-5') or six (seconds first), ` +
        `and an IANA time zone such as 'Europe/Berlin' (${(error as Error).message})`,
    );
  }
  return {
    after: (time) => cron.nextRun(new Date(time))?.getTime(),
    // previousRuns looks strictly before its reference: one millisecond later includes `time` itself.
    atOrBefore: (time) => cron.previousRuns(1, new Date(time + 1))[0]?.getTime(),
  };
}
