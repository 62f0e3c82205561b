import { randomUUID } from 'node:crypto';
import type { App, Logger } from '@boardbot/protocol';
import type { Clock } from '../kernel/clock.js';
import type { Plugin } from '../plugins/plugin.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { ScheduleDescription } from './describe-schedules.js';
import type { ScheduleTarget, TickHandler } from './handle-tick.js';
import { ScheduleClaims } from './schedule-claims.js';

/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days); a later tick is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One schedule with the method it runs. */
export interface ScheduledMethod {
  schedule: ScheduleDescription;
  target: ScheduleTarget;
}

/** What the scheduler needs from the bot. */
export interface SchedulerDeps {
  schedules: readonly ScheduledMethod[];
  /** Where ticks run: the bot's queue, so that `stop()` waits for them like for handlers. */
  queue: { push(key: string | undefined, task: () => Promise<unknown>): void };
  /** Runs one tick as a handler run, through the runner. */
  ticks: Pick<TickHandler, 'handle'>;
  /** Where the claims are made: the bot's session store. */
  store: () => SessionStore;
  clock: Clock;
  log: Logger;
  app: () => App;
  /** Whether the bot takes new work (false once it is stopping). */
  accepting: () => boolean;
  /** How long a claimed tick may be running before it no longer counts as an overlap. */
  handlerTimeoutMs: number;
}

/**
 * Runs the bot's `@Every` and `@Cron` methods on the bot's clock: a timer per schedule for its next
 * tick; each tick claimed in the session store before it runs, so it runs once across the bot's
 * instances and restarts; on start, the latest tick missed while no instance ran, once (per the
 * schedule's `missed` policy); a tick due while the previous one still runs skipped (per `overlap`).
 * It is a plugin: it reaches the bot only through its start and stop hooks and the parts it is given.
 */
export class Scheduler implements Plugin {
  readonly name = 'boardbot:schedules';
  private readonly instance = randomUUID();
  private readonly timers = new Map<string, unknown>();
  private readonly runningHere = new Set<string>();
  private claimsOf: ScheduleClaims | undefined;

  /** @param deps - the schedules and the bot's parts they run with */
  constructor(private readonly deps: SchedulerDeps) {}

  onStart(): void {
    const { schedules, clock, log } = this.deps;
    if (schedules.length === 0) return;
    for (const scheduled of schedules) {
      this.deps.queue.push(undefined, () => this.catchUp(scheduled));
      this.arm(scheduled, clock.now());
    }
    log.info({ schedules: schedules.map((s) => s.schedule.name) }, 'schedules started');
  }

  onStop(): void {
    for (const timer of this.timers.values()) this.deps.clock.clearTimeout(timer);
    this.timers.clear();
  }

  private get claims(): ScheduleClaims {
    this.claimsOf ??= new ScheduleClaims(this.deps.store(), this.deps.app().id, this.instance);
    return this.claimsOf;
  }

  /** Sets the timer of the schedule's first tick after `from`. */
  private arm(scheduled: ScheduledMethod, from: number): void {
    const { clock } = this.deps;
    const tick = scheduled.schedule.times.after(from);
    if (tick === undefined) return;
    const wait = (): void => {
      const left = tick - clock.now();
      const timer = clock.setTimeout(
        () => {
          if (!this.deps.accepting()) return;
          // A timer may fire a little early, or stop short of a far tick: wait the rest.
          if (clock.now() < tick) return wait();
          // Armed from now, not from this tick: after a stall (a suspended machine, a blocked event
          // loop) past several ticks, this late tick runs once and the ones in between are not run.
          this.arm(scheduled, Math.max(tick, clock.now()));
          this.deps.queue.push(undefined, () => this.runTick(scheduled, tick, false));
        },
        Math.max(0, Math.min(left, MAX_TIMER_MS)),
      );
      this.timers.set(scheduled.schedule.name, timer);
    };
    wait();
  }

  /** On start: runs the latest tick missed while no instance ran, if the policy says so. */
  private async catchUp(scheduled: ScheduledMethod): Promise<void> {
    const { schedule } = scheduled;
    try {
      const latest = schedule.times.atOrBefore(this.deps.clock.now());
      if (latest === undefined) return;
      const last = await this.claims.last(schedule.name);
      // The first start of a schedule missed nothing: it only records where it begins.
      if (last === undefined) return await this.claims.reach(schedule.name, latest);
      if (latest <= last) return;
      if (schedule.missed === 'skip') {
        this.deps.log.info({ schedule: schedule.name, tick: iso(latest) }, "missed tick not run (missed: 'skip')");
        return await this.claims.reach(schedule.name, latest);
      }
      this.deps.log.info(
        { schedule: schedule.name, tick: iso(latest) },
        'running the latest tick missed while the bot was down',
      );
      await this.runTick(scheduled, latest, true);
    } catch (error) {
      this.deps.log.error({ err: error, schedule: schedule.name }, 'could not check the missed ticks of a schedule');
    }
  }

  /** Claims a tick and runs it, unless it overlaps a run still under way, or is claimed elsewhere. */
  private async runTick(scheduled: ScheduledMethod, tick: number, missed: boolean): Promise<void> {
    const { schedule, target } = scheduled;
    const log = this.deps.log.child({ schedule: schedule.name, tick: iso(tick) });
    try {
      if (schedule.overlap === 'skip' && (await this.overlaps(schedule, tick))) {
        return log.warn("tick skipped: the schedule's previous tick is still running (overlap: 'skip')");
      }
      if (!(await this.claims.claim(schedule.name, tick, this.deps.clock.now()))) {
        return log.debug('tick claimed by another instance (or an earlier run): not run here');
      }
      await this.claims.reach(schedule.name, tick);
    } catch (error) {
      return log.error({ err: error }, 'could not claim a tick: not run');
    }
    this.runningHere.add(schedule.name);
    try {
      await this.deps.ticks.handle(target, { name: schedule.name, scheduledAt: new Date(tick), missed });
    } finally {
      this.runningHere.delete(schedule.name);
      await this.claims.finish(schedule.name, tick).catch((error: unknown) => {
        log.warn({ err: error }, 'could not mark a tick finished');
      });
    }
  }

  /** Whether the schedule's previous tick still runs, in this process or (per its claim) in another. */
  private async overlaps(schedule: ScheduleDescription, tick: number): Promise<boolean> {
    if (this.runningHere.has(schedule.name)) return true;
    const previous = schedule.times.atOrBefore(tick - 1);
    if (previous === undefined) return false;
    return this.claims.running(schedule.name, previous, this.deps.clock.now(), this.deps.handlerTimeoutMs);
  }
}

function iso(time: number): string {
  return new Date(time).toISOString();
}
