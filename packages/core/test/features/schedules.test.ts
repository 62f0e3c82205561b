import {
  Cron,
  createBot,
  Every,
  FileSessionStore,
  MemoryPositionStore,
  MemorySessionStore,
  type ScheduleContext,
} from '@boardbot/core';
import { createTestPlatform, TestClock } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';
import { anotherInstance, eventually, stateDir } from './support.js';

/** The general board's id, read by the tick itself (a tick serves no board). */
async function general(ctx: ScheduleContext): Promise<string> {
  const board = (await ctx.rest.listBoards()).find((b) => b.name === 'general');
  if (!board) throw new Error('the seed has no general board');
  return board.id;
}

class Reminder {
  @Every('10m')
  async remind(ctx: ScheduleContext) {
    // Through ctx.rest: the write carries the key derived from the tick, as the context's would.
    await ctx.rest.sendMessage(await general(ctx), {
      content: `tick ${ctx.tick.scheduledAt.toISOString()}${ctx.tick.missed ? ' (missed)' : ''}`,
    });
  }
}

const ticks = (messages: { content: string | null }[]) =>
  messages.map((m) => m.content).filter((c): c is string => c?.startsWith('tick ') === true);

describe('schedules against the emulator', () => {
  it('runs a tick once across two bot instances sharing a file store, on the harness clock', async () => {
    const dir = await stateDir();
    const clock = new TestClock('2026-03-02T08:59:00Z');
    const platform = await createTestPlatform({
      handlers: [Reminder],
      sessions: new FileSessionStore(dir.path, { clock }),
      clock,
    });
    const replica = anotherInstance(platform, {
      handlers: [Reminder],
      sessions: new FileSessionStore(dir.path, { clock }),
      clock,
    });
    try {
      await replica.start();
      await platform.settle();
      await replica.idle();
      expect(ticks(platform.bot.messages())).toEqual([]);

      clock.advanceTo('2026-03-02T09:00:00Z');
      expect((await platform.bot.nextMessage()).content).toBe('tick 2026-03-02T09:00:00.000Z');
      await platform.settle();
      await replica.idle();
      expect(ticks(platform.bot.messages())).toEqual(['tick 2026-03-02T09:00:00.000Z']);
    } finally {
      await replica.stop();
      await platform.close();
      await dir.remove();
    }
  });

  it('posts a tick once even when two instances without a shared store both run it: its writes carry keys derived from the tick', async () => {
    const clock = new TestClock('2026-03-02T08:59:00Z');
    const platform = await createTestPlatform({ handlers: [Reminder], sessions: new MemorySessionStore(), clock });
    const stranger = anotherInstance(platform, { handlers: [Reminder], sessions: new MemorySessionStore(), clock });
    try {
      await stranger.start();
      clock.advanceTo('2026-03-02T09:00:00Z');
      expect((await platform.bot.nextMessage()).content).toBe('tick 2026-03-02T09:00:00.000Z');
      await platform.settle();
      await stranger.idle();
      // Both claimed it (their stores differ) and both ran it: the platform replayed the second write.
      expect(platform.logs.find({ msg: /tick claimed by another instance/ })).toHaveLength(0);
      expect(ticks(platform.bot.messages())).toEqual(['tick 2026-03-02T09:00:00.000Z']);
    } finally {
      await stranger.stop();
      await platform.close();
    }
  });

  it('runs the latest tick missed while the bot was down once, on start', async () => {
    const clock = new TestClock('2026-03-02T08:59:00Z');
    const sessions = new MemorySessionStore();
    const position = new MemoryPositionStore();
    const platform = await createTestPlatform({ handlers: [Reminder], sessions, position, clock });
    const next = anotherInstance(platform, { handlers: [Reminder], sessions, position, clock });
    try {
      clock.advanceTo('2026-03-02T09:00:00Z');
      expect((await platform.bot.nextMessage()).content).toBe('tick 2026-03-02T09:00:00.000Z');
      await platform.settle();
      await platform.bot.runtime.stop();

      // Down over the 09:10 and 09:20 ticks; back at 09:25.
      clock.advanceTo('2026-03-02T09:25:00Z');
      await next.start();
      expect((await platform.bot.nextMessage()).content).toBe('tick 2026-03-02T09:20:00.000Z (missed)');
      await next.idle();
      clock.advanceTo('2026-03-02T09:30:00Z');
      expect((await platform.bot.nextMessage()).content).toBe('tick 2026-03-02T09:30:00.000Z');
      await next.idle();
      expect(ticks(platform.bot.messages())).toEqual([
        'tick 2026-03-02T09:00:00.000Z',
        'tick 2026-03-02T09:20:00.000Z (missed)',
        'tick 2026-03-02T09:30:00.000Z',
      ]);
    } finally {
      await next.stop();
      await platform.close();
    }
  });

  it('after a stall past several ticks (clock.jump), runs the late tick once and none of those in between', async () => {
    const clock = new TestClock('2026-03-02T08:59:00Z');
    const platform = await createTestPlatform({ handlers: [Reminder], clock });
    try {
      await platform.settle();
      // The process sleeps from 08:59 to 09:34: the 09:00 timer fires late; 09:10 to 09:30 never run.
      clock.jump(35 * 60_000);
      expect((await platform.bot.nextMessage()).content).toBe('tick 2026-03-02T09:00:00.000Z');
      await platform.settle();
      clock.advanceTo('2026-03-02T09:40:00Z');
      expect((await platform.bot.nextMessage()).content).toBe('tick 2026-03-02T09:40:00.000Z');
      await platform.settle();
      expect(ticks(platform.bot.messages())).toEqual([
        'tick 2026-03-02T09:00:00.000Z',
        'tick 2026-03-02T09:40:00.000Z',
      ]);
    } finally {
      await platform.close();
    }
  });

  it('skips a tick due while the previous one still runs on another instance, and runs the next', async () => {
    const clock = new TestClock('2026-03-02T08:59:30Z');
    const sessions = new MemorySessionStore();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    class Slow {
      @Every('1m')
      async work(ctx: ScheduleContext) {
        await ctx.send(await general(ctx), `started ${ctx.tick.scheduledAt.toISOString()}`);
        if (ctx.tick.scheduledAt.toISOString() === '2026-03-02T09:00:00.000Z') await gate;
      }
    }
    // Ticks run longer than a minute here: the handler timeout must not abandon the first one.
    const options = { handlers: [Slow], sessions, clock, handlerTimeoutMs: 3_600_000 };
    const platform = await createTestPlatform(options);
    const replica = anotherInstance(platform, options);
    try {
      await replica.start();
      clock.advanceTo('2026-03-02T09:00:00Z');
      expect((await platform.bot.nextMessage()).content).toBe('started 2026-03-02T09:00:00.000Z');

      clock.advanceTo('2026-03-02T09:01:00Z');
      // The instance running 09:00 knows it locally; the other one from the claim of 09:00.
      await eventually(
        async () => platform.logs.find({ msg: /previous tick is still running/ }).length === 1,
        'the skip on the platform bot',
      );
      release();
      await platform.settle();
      await replica.idle();
      clock.advanceTo('2026-03-02T09:02:00Z');
      expect((await platform.bot.nextMessage()).content).toBe('started 2026-03-02T09:02:00.000Z');
      await platform.settle();
      await replica.idle();
      expect(platform.bot.messages({ content: /^started/ }).map((m) => m.content)).toEqual([
        'started 2026-03-02T09:00:00.000Z',
        'started 2026-03-02T09:02:00.000Z',
      ]);
    } finally {
      release();
      await replica.stop();
      await platform.close();
    }
  });

  it('follows a spring-forward change in its time zone: a time that does not exist runs at the first valid one', async () => {
    class Night {
      @Cron('30 2 * * *', { timezone: 'America/New_York' })
      async spring(ctx: ScheduleContext) {
        await ctx.send(await general(ctx), `spring ${ctx.tick.scheduledAt.toISOString()}`);
      }
      @Cron('30 1 * * *', { timezone: 'America/New_York' })
      async fall(ctx: ScheduleContext) {
        await ctx.send(await general(ctx), `fall ${ctx.tick.scheduledAt.toISOString()}`);
      }
    }
    const clock = new TestClock('2026-03-07T12:00:00Z');
    const platform = await createTestPlatform({ handlers: [Night], clock });
    /** Moves the clock a day at a time (each day's ticks run and finish before the next day's). */
    const walkTo = async (end: string) => {
      while (clock.now() < Date.parse(end)) {
        clock.advanceTo(Math.min(clock.now() + 86_400_000, Date.parse(end)));
        await platform.settle();
      }
    };
    const posted = (prefix: string) =>
      platform.bot.messages({ content: new RegExp(`^${prefix} `) }).map((m) => m.content);
    try {
      // 2026-03-08: New York springs from 02:00 to 03:00, so 02:30 does not exist; it runs at 03:00 EDT.
      await walkTo('2026-03-09T12:00:00Z');
      expect(posted('spring')).toEqual(['spring 2026-03-08T07:00:00.000Z', 'spring 2026-03-09T06:30:00.000Z']);
      expect(posted('fall')).toEqual(['fall 2026-03-08T06:30:00.000Z', 'fall 2026-03-09T05:30:00.000Z']);
    } finally {
      await platform.close();
    }
  });

  it('runs a time repeated by the fall-back change once, at its first occurrence', async () => {
    class Night {
      @Cron('30 1 * * *', { timezone: 'America/New_York' })
      async fall(ctx: ScheduleContext) {
        await ctx.send(await general(ctx), `fall ${ctx.tick.scheduledAt.toISOString()}`);
      }
    }
    const clock = new TestClock('2026-10-31T12:00:00Z');
    const platform = await createTestPlatform({ handlers: [Night], clock });
    try {
      // 2026-11-01: 01:30 happens twice (05:30Z in EDT, then 06:30Z in EST); it runs at the first.
      clock.advanceTo('2026-11-01T12:00:00Z');
      await platform.settle();
      clock.advanceTo('2026-11-02T12:00:00Z');
      await platform.settle();
      expect(platform.bot.messages({ content: /^fall / }).map((m) => m.content)).toEqual([
        'fall 2026-11-01T05:30:00.000Z',
        'fall 2026-11-02T06:30:00.000Z',
      ]);
    } finally {
      await platform.close();
    }
  });
});

describe('schedules that cannot work', () => {
  it('fail createBot with BOARDBOT_INVALID_SCHEDULE on a bad cron expression or time zone', () => {
    class BadPattern {
      @Cron('61 * * * *')
      run() {}
    }
    class BadZone {
      @Cron('0 9 * * 1-5', { timezone: 'Mars/Olympus' })
      run() {}
    }
    for (const handler of [BadPattern, BadZone]) {
      expect(() => createBot({ token: 't', handlers: [handler], logger: false })).toThrow(
        expect.objectContaining({ code: 'BOARDBOT_INVALID_SCHEDULE', message: expect.stringMatching(/five fields/) }),
      );
    }
  });

  it('refuse an @Every interval that is not a whole one of at least a second', () => {
    for (const interval of ['10 minutes', '0s', 500]) {
      expect(() => Every(interval)).toThrow(expect.objectContaining({ code: 'BOARDBOT_INVALID_SCHEDULE' }));
    }
  });
});
