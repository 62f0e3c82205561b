import { Every, MemorySessionStore, type MissedTicks, type OverlappingTicks, type Tick } from '@boardbot/core';
import { describeSchedules, KeyedQueue, type ScheduledMethod, Scheduler } from '@boardbot/core/internal';
import type { App } from '@boardbot/protocol';
import { eventually, recordingLogger } from '@boardbot/test-support';
import { TestClock } from '@boardbot/testing/clock';
import { describe, expect, it } from 'vitest';

const T0 = Date.parse('2026-03-02T09:00:00Z');
const minutes = (n: number) => T0 + n * 60_000;
const at = (tick: Tick) => (tick.scheduledAt.getTime() - T0) / 60_000;

/** A scheduler of one `@Every('1m')` method, its runs recorded; `hold` keeps a tick running. */
function minutely(options: {
  clock: TestClock;
  store: MemorySessionStore;
  missed?: MissedTicks;
  overlap?: OverlappingTicks;
  hold?: Promise<void>;
}) {
  class Job {
    @Every('1m', {
      name: 'job',
      ...(options.missed ? { missed: options.missed } : {}),
      ...(options.overlap ? { overlap: options.overlap } : {}),
    })
    run() {}
  }
  const [schedule] = describeSchedules(Job);
  if (!schedule) throw new Error('no schedule');
  const ran: Tick[] = [];
  const queue = new KeyedQueue(8, () => {});
  const log = recordingLogger();
  const scheduler = new Scheduler({
    schedules: [{ schedule, target: { schedule: 'job' } as unknown as ScheduledMethod['target'] }],
    queue,
    ticks: {
      handle: async (_target, tick) => {
        ran.push(tick);
        await options.hold;
      },
    },
    store: () => options.store,
    clock: options.clock,
    log,
    app: () => ({ id: 'app' }) as App,
    accepting: () => true,
    handlerTimeoutMs: 3_600_000,
  });
  return { scheduler, ran, queue, log };
}

describe('Scheduler', () => {
  it('after a stall past several ticks, runs the late tick once and arms the next one ahead', async () => {
    const clock = new TestClock(minutes(0) + 30_000);
    const { scheduler, ran, queue } = minutely({ clock, store: new MemorySessionStore() });
    scheduler.onStart();
    await queue.idle();
    clock.jump(5 * 60_000); // 09:05:30: the 09:01 timer fires late; 09:02-09:05 are not run
    await queue.idle();
    clock.jump(30_000); // 09:06
    await queue.idle();
    expect(ran.map(at)).toEqual([1, 6]);
    scheduler.onStop();
  });

  it("with missed: 'skip', runs no missed tick on start and goes on with the next", async () => {
    const store = new MemorySessionStore();
    const clock = new TestClock(minutes(0) + 30_000);
    const first = minutely({ clock, store, missed: 'skip' });
    first.scheduler.onStart();
    clock.jump(30_000);
    await first.queue.idle();
    first.scheduler.onStop();

    clock.jump(4 * 60_000 + 30_000); // down over 09:02-09:05
    const next = minutely({ clock, store, missed: 'skip' });
    next.scheduler.onStart();
    await next.queue.idle();
    expect(next.ran).toEqual([]);
    expect(next.log.lines.filter((l) => l.msg?.startsWith('missed tick not run'))).toHaveLength(1);
    clock.jump(30_000);
    await next.queue.idle();
    expect([...first.ran, ...next.ran].map((t) => [at(t), t.missed])).toEqual([
      [1, false],
      [6, false],
    ]);
    next.scheduler.onStop();
  });

  it("with overlap: 'run', runs a tick beside the previous one still running", async () => {
    let release = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const clock = new TestClock(minutes(0) + 30_000);
    const { scheduler, ran, queue } = minutely({ clock, store: new MemorySessionStore(), overlap: 'run', hold });
    scheduler.onStart();
    clock.jump(30_000);
    await eventually(() => expect(ran).toHaveLength(1));
    clock.jump(60_000);
    await eventually(() => expect(ran).toHaveLength(2));
    expect(ran.map(at)).toEqual([1, 2]);
    release();
    await queue.idle();
    scheduler.onStop();
  });

  it('does not run a tick again on another instance when the one that claimed it died during the run', async () => {
    const store = new MemorySessionStore();
    const clock = new TestClock(minutes(0) + 30_000);
    const dying = minutely({ clock, store, hold: new Promise<void>(() => {}) });
    dying.scheduler.onStart();
    clock.jump(30_000);
    await eventually(() => expect(dying.ran).toHaveLength(1));
    dying.scheduler.onStop(); // the process is gone; its tick never finished

    const next = minutely({ clock, store });
    next.scheduler.onStart();
    await next.queue.idle();
    expect(next.ran).toEqual([]);
    next.scheduler.onStop();
  });
});
