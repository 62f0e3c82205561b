import { createBot, MemoryPositionStore, type MessageContext, OnMessage, OnMessageEdit } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { sample } from '@boardbot/test-support';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anotherInstance, type Deferred, deferred } from './support.js';

// docs/listening-to-messages.md, "Bursts": each policy through the runtime on the emulator, every
// wait on the harness's clock (the emulator dates messages by it too, so `created_at` is the same time).
// A kill -9 while a burst is held: test/restart/bursts.test.ts; replicas: test/scale/bursts.test.ts.

/** What each run saw: its message and its skipped ones. */
interface Seen {
  message: string;
  skipped: string[];
}
const seen = (ctx: MessageContext): Seen => ({
  message: ctx.message.content ?? '',
  skipped: ctx.skipped.map((m) => m.content ?? ''),
});

/** The idempotency key each run derived for `k`, by the message it ran for. */
const keys = new Map<string, string>();

const runs: Record<'debounce' | 'drop' | 'latest' | 'collapse', Seen[]> = {
  debounce: [],
  drop: [],
  latest: [],
  collapse: [],
};
const dropGate = deferred();
const dropStarted = deferred();
const collapseGate = deferred();
const collapseStarted = deferred();
const latestStarted = deferred();
const latestAborted = deferred<{ reason: unknown; write: unknown }>();

class Bursty {
  @OnMessage(/^d /, { burst: { mode: 'debounce', ms: 1000 } })
  debounced(ctx: MessageContext) {
    runs.debounce.push(seen(ctx));
    keys.set(ctx.message.id, ctx.idempotencyKey('k'));
    return `answer to ${ctx.message.content} with ${ctx.skipped.length} skipped`;
  }

  @OnMessage(/^drop /, { burst: 'drop' })
  async dropping(ctx: MessageContext) {
    runs.drop.push(seen(ctx));
    dropStarted.resolve();
    await dropGate.promise;
    return `dropped around ${ctx.message.content}`;
  }

  @OnMessage(/^latest /, { burst: 'latest' })
  async latest(ctx: MessageContext) {
    runs.latest.push(seen(ctx));
    keys.set(ctx.message.id, ctx.idempotencyKey('k'));
    if (runs.latest.length === 1) {
      latestStarted.resolve();
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      // Its writes stop: this reply is refused.
      const write = await ctx.reply('too late').catch((error: unknown) => error);
      latestAborted.resolve({ reason: ctx.signal.reason, write });
      return;
    }
    return `latest is ${ctx.message.content}, ${ctx.skipped.length} before it`;
  }

  @OnMessage(/^c /, { burst: 'collapse' })
  async collapsed(ctx: MessageContext) {
    runs.collapse.push(seen(ctx));
    if (runs.collapse.length === 1) {
      collapseStarted.resolve();
      await collapseGate.promise;
    }
    return `read ${[...ctx.skipped, ctx.message].map((m) => m.content).join(' + ')}`;
  }

  @OnMessage(/^b /, { burst: { mode: 'debounce', ms: 1000, per: 'board' } })
  board(ctx: MessageContext) {
    return `the board said ${[...ctx.skipped, ctx.message].map((m) => m.content).join(' + ')}`;
  }

  @OnMessage(/^hello/)
  hello() {
    return 'hi';
  }
}

/** Contents the bot received, and who waits for one: a held message is taken before its receipt runs. */
const receipts = new Map<string, Deferred>();
const receipt = (content: string) => {
  let entry = receipts.get(content);
  if (!entry) {
    entry = deferred();
    receipts.set(content, entry);
  }
  return entry;
};

/** Runs after the burst listeners of the same message (declared after them): the message was taken. */
class Receipts {
  @OnMessage()
  received(ctx: MessageContext) {
    receipt(ctx.message.content ?? '').resolve();
  }
}

describe('burst policies', () => {
  let platform: TestPlatform;
  let clock: TestClock;
  const metrics = async () => (await fetch(`${platform.bot.runtime.healthUrl}/metrics`)).text();

  beforeAll(async () => {
    clock = new TestClock('2026-03-02T09:00:00Z');
    platform = await createTestPlatform({
      handlers: [Bursty, Receipts],
      clock,
      health: { port: 0 },
      emulator: { now: () => clock.now() },
    });
  });
  afterAll(() => platform?.close());

  it("debounce: 5 messages then silence are one run, ms after the last by created_at, with 4 in ctx.skipped, while other people's messages go on", async () => {
    const alice = platform.person('alice');
    const bob = platform.person('bob');
    const burst: Message[] = [];
    for (let i = 1; i <= 5; i++) {
      if (i > 1) clock.advance(200);
      burst.push(await alice.say(`d ${i}`));
    }
    // The burst is held out of the board's ordering slot: Bob is answered while it waits.
    const hello = await bob.say('hello');
    expect((await platform.bot.nextMessage({ replyTo: hello })).content).toBe('hi');
    clock.advance(999);
    await platform.settle();
    expect(runs.debounce).toEqual([]);
    clock.advance(1);
    const answer = await platform.bot.nextMessage({ replyTo: burst[4] as Message });
    expect(answer.content).toBe('answer to d 5 with 4 skipped');
    await platform.settle();
    expect(runs.debounce).toEqual([{ message: 'd 5', skipped: ['d 1', 'd 2', 'd 3', 'd 4'] }]);
    for (const m of burst.slice(0, 4)) expect(platform.bot.messages({ replyTo: m })).toEqual([]);
    // The run's keys derive from the burst's first message: a replay forms the same burst, same keys.
    expect(keys.get((burst[4] as Message).id)).toContain(`:m.${(burst[0] as Message).id}:`);
    const text = await metrics();
    expect(sample(text, 'boardbot_bursts_held_total', { handler: 'Bursty.debounced' })).toBe(1);
    expect(sample(text, 'boardbot_burst_messages_skipped_total', { handler: 'Bursty.debounced' })).toBe(4);
  });

  it('debounce: a message later than ms after the last one (by created_at) starts a new burst', async () => {
    runs.debounce.length = 0;
    const carol = platform.person('carol');
    const first = await carol.say('d a');
    await platform.settle();
    clock.advance(1000);
    await platform.bot.nextMessage({ replyTo: first });
    const second = await carol.say('d b');
    await platform.settle();
    clock.advance(1000);
    expect((await platform.bot.nextMessage({ replyTo: second })).content).toBe('answer to d b with 0 skipped');
    expect(runs.debounce).toEqual([
      { message: 'd a', skipped: [] },
      { message: 'd b', skipped: [] },
    ]);
  });

  it("per: 'board': the messages of everyone on the board form one burst", async () => {
    await platform.person('alice').say('b one');
    const last = await platform.person('bob').say('b two');
    await platform.settle();
    clock.advance(1000);
    expect((await platform.bot.nextMessage({ replyTo: last })).content).toBe('the board said b one + b two');
  });

  it('drop: what arrives while a run of the same author is going is ignored', async () => {
    const alice = platform.person('alice');
    const first = await alice.say('drop 1');
    await dropStarted.promise;
    const second = await alice.say('drop 2');
    const third = await alice.say('drop 3');
    await receipt('drop 3').promise;
    dropGate.resolve();
    expect((await platform.bot.nextMessage({ replyTo: first })).content).toBe('dropped around drop 1');
    await platform.settle();
    expect(runs.drop).toEqual([{ message: 'drop 1', skipped: [] }]);
    expect(platform.bot.messages({ replyTo: second })).toEqual([]);
    expect(platform.bot.messages({ replyTo: third })).toEqual([]);
    const text = await metrics();
    expect(sample(text, 'boardbot_burst_messages_skipped_total', { handler: 'Bursty.dropping' })).toBe(2);
  });

  it('latest: a newer message aborts the running one (its signal fires, its writes stop) and runs the newest', async () => {
    const alice = platform.person('alice');
    const first = await alice.say('latest 1');
    await latestStarted.promise;
    const second = await alice.say('latest 2');
    const answer = await platform.bot.nextMessage({ replyTo: second });
    expect(answer.content).toBe('latest is latest 2, 1 before it');
    const { reason, write } = await latestAborted.promise;
    expect(reason).toMatchObject({ code: 'BOARDBOT_RUN_CANCELLED' });
    expect(write).toMatchObject({ code: 'BOARDBOT_WRITE_DROPPED' });
    await platform.settle();
    // Nothing from the cancelled run, and no apology: a cancellation is no failure.
    expect(platform.bot.messages({ replyTo: first })).toEqual([]);
    expect(runs.latest).toEqual([
      { message: 'latest 1', skipped: [] },
      { message: 'latest 2', skipped: ['latest 1'] },
    ]);
    const text = await metrics();
    expect(sample(text, 'boardbot_burst_runs_cancelled_total', { handler: 'Bursty.latest' })).toBe(1);
    const cancelled = { handler: 'Bursty.latest', outcome: 'cancelled' };
    expect(sample(text, 'boardbot_handler_duration_seconds_count', cancelled)).toBe(1);
    expect(sample(text, 'boardbot_handler_duration_seconds_count', { ...cancelled, outcome: 'error' })).toBe(0);
    // Each run of 'latest' keys its writes from its own newest message, not the cancelled one's.
    expect(keys.get(second.id)).toContain(`:m.${second.id}:`);
  });

  it('collapse: three messages during a run are run once, together, when it ends', async () => {
    const alice = platform.person('alice');
    await alice.say('c 0');
    await collapseStarted.promise;
    const during = [await alice.say('c 1'), await alice.say('c 2'), await alice.say('c 3')];
    await receipt('c 3').promise;
    expect(runs.collapse).toHaveLength(1);
    collapseGate.resolve();
    expect((await platform.bot.nextMessage({ replyTo: during[2] as Message })).content).toBe('read c 1 + c 2 + c 3');
    await platform.settle();
    expect(runs.collapse).toEqual([
      { message: 'c 0', skipped: [] },
      { message: 'c 3', skipped: ['c 1', 'c 2'] },
    ]);
  });
});

/** What the stop test's listeners saw: runs, and each message taken (with who waits for a count). */
const stopRuns: Seen[] = [];
const taken: string[] = [];
const takenWaiters: (() => void)[] = [];
const takenTimes = (content: string, times: number): Promise<void> =>
  new Promise((resolve) => {
    const check = (): void => {
      if (taken.filter((c) => c === content).length >= times) resolve();
      else takenWaiters.push(check);
    };
    check();
  });

class HeldAtStop {
  @OnMessage(/^s /, { burst: { mode: 'debounce', ms: 1000 } })
  held(ctx: MessageContext) {
    stopRuns.push(seen(ctx));
    return `answer to ${ctx.message.content} with ${ctx.skipped.length} skipped`;
  }

  @OnMessage(/^s /)
  saw(ctx: MessageContext) {
    taken.push(ctx.message.content ?? '');
    for (const wake of takenWaiters.splice(0)) wake();
  }
}

describe('a burst held when the bot stops', () => {
  it('is not done: the next process, resuming from the same position, answers it once', async () => {
    const clock = new TestClock('2026-03-02T09:00:00Z');
    const platform = await createTestPlatform({
      handlers: [Receipts],
      start: false,
      emulator: { now: () => clock.now() },
    });
    try {
      const position = new MemoryPositionStore();
      const first = anotherInstance(platform, { handlers: [HeldAtStop], clock, position });
      await first.start();
      const alice = platform.person('alice');
      await alice.say('s 1');
      clock.advance(200);
      const last = await alice.say('s 2');
      await takenTimes('s 2', 1);
      await first.stop();
      const second = anotherInstance(platform, { handlers: [HeldAtStop], clock, position });
      await second.start();
      try {
        await takenTimes('s 2', 2);
        clock.advance(1000);
        expect((await platform.bot.nextMessage({ replyTo: last })).content).toBe('answer to s 2 with 1 skipped');
        expect(stopRuns).toEqual([{ message: 's 2', skipped: ['s 1'] }]);
      } finally {
        await second.stop();
      }
    } finally {
      await platform.close();
    }
  });
});

describe('held messages and the intake bound', () => {
  it("count toward their board's share: past it the board's new messages are set aside (the gateway reads on), then run once the burst ran", async () => {
    const clock = new TestClock('2026-03-02T09:00:00Z');
    // A share of 1 event per board once 2 are held in all.
    const platform = await createTestPlatform({
      handlers: [Bursty],
      clock,
      maxPendingEvents: 4,
      emulator: { now: () => clock.now() },
    });
    try {
      const dave = platform.person('dave');
      const burst: Message[] = [];
      for (let i = 1; i <= 4; i++) burst.push(await dave.say(`d bound ${i}`));
      // Another board is answered while the burst holds its messages: the gateway reads on.
      const hello = await platform.person('erin').say('hello', { board: 'random' });
      expect((await platform.bot.nextMessage({ replyTo: hello })).content).toBe('hi');
      const over = platform.logs.find({ msg: 'board over its share of the intake' });
      expect(over.filter((l) => l.board_id === burst[0]?.board_id)).toHaveLength(1);
      clock.advance(1000);
      expect((await platform.bot.nextMessage({ replyTo: burst[1] as Message })).content).toBe(
        'answer to d bound 2 with 1 skipped',
      );
      // The two set aside are read back once the burst ran, as many at a time as the board has room
      // for (a share of 1: one), each its own burst.
      for (const i of [2, 3]) {
        await platform.settle();
        clock.advance(1000);
        expect((await platform.bot.nextMessage({ replyTo: burst[i] as Message })).content).toBe(
          `answer to d bound ${i + 1} with 0 skipped`,
        );
      }
      const caughtUp = platform.logs.find({ msg: 'board caught up' });
      expect(caughtUp.filter((l) => l.board_id === burst[0]?.board_id)).toHaveLength(1);
    } finally {
      await platform.close();
    }
  });
});

describe('burst policies refused', () => {
  it("with orderBy: 'none', naming the listeners and the fix", () => {
    expect(() => createBot({ token: 't', handlers: [Bursty], orderBy: 'none' })).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_BURST_UNORDERED',
        message: expect.stringMatching(/Bursty\.debounced, .*orderBy: 'board'/),
      }),
    );
  });

  it('when declared wrong: debounce without ms, a burst on an edit listener, a cap below 2', () => {
    expect(() => {
      class NoMs {
        @OnMessage('x', { burst: 'debounce' })
        m() {}
      }
      return NoMs;
    }).toThrow(
      expect.objectContaining({ code: 'BOARDBOT_INVALID_HANDLER', message: expect.stringMatching(/needs ms/) }),
    );
    expect(() => {
      class OnEdit {
        @OnMessageEdit('x', { burst: 'drop' } as never)
        m() {}
      }
      return OnEdit;
    }).toThrow(/burst applies to @OnMessage only/);
    expect(() => {
      class CapOfOne {
        @OnMessage('x', { burst: { mode: 'collapse', max: 1 } })
        m() {}
      }
      return CapOfOne;
    }).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_INVALID_HANDLER',
        message: expect.stringMatching(/burst.max .* at least 2/),
      }),
    );
  });
});
