import {
  type AnyContext,
  Command,
  createBot,
  type MessageContext,
  type Middleware,
  OnError,
  OnEvent,
  OnMessage,
} from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// docs/guards-middleware-cooldowns.md, "When a handler fails" and the related createBot options,
// through the runtime on the emulator.

/** What the hooks and handlers of this file did, in order. */
const trail: string[] = [];
beforeEach(() => {
  trail.length = 0;
});

class Failing {
  static hooked: string[] = [];

  @OnMessage('!boom')
  boom(): string {
    throw new Error('kaput');
  }

  @OnMessage('!twice')
  twice() {
    return 'twice';
  }

  @OnMessage('!stopped')
  stopped() {
    return 'never said';
  }

  @OnEvent('message.create')
  event(): void {
    throw new Error('event kaput');
  }

  @OnError()
  failed(error: unknown, ctx: AnyContext) {
    trail.push(`class hook: ${(error as Error).message} (${ctx.kind})`);
    throw new Error('the class hook broke');
  }
}

@Command({ name: 'quota', description: 'Its hook answers' })
class Quota {
  run(): string {
    throw new Error('over quota');
  }
  @OnError()
  async failed(_error: unknown, ctx: AnyContext) {
    if (ctx.kind === 'command') await ctx.reply('Too many today.');
  }
}

/** Calls next() twice for `!twice`, and never for `!stopped`. */
const misbehaving: Middleware = async (ctx, next) => {
  const text = ctx.kind === 'message' ? ctx.message.content : '';
  if (text === '!stopped') return;
  await next();
  if (text === '!twice') await next();
};

describe('when a handler fails', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await createTestPlatform({
      bot: (base) =>
        createBot({
          ...base,
          handlers: [Failing, Quota],
          errorReply: 'Broke on our side.',
          onError: (error, ctx) => {
            trail.push(`onError: ${(error as Error).message} (${ctx.kind})`);
          },
        }).use(misbehaving),
    });
  });
  afterAll(() => platform?.close());

  it('logs it, calls the class hook then onError (a throwing hook is logged and the next runs), then says errorReply', async () => {
    const boom = await platform.person('alice').say('!boom');
    expect((await platform.bot.nextMessage({ replyTo: boom })).content).toBe('Broke on our side.');
    await platform.settle();
    expect(trail.filter((t) => t.includes('kaput') && !t.includes('event'))).toEqual([
      'class hook: kaput (message)',
      'onError: kaput (message)',
    ]);
    expect(platform.logs.find({ level: 'error', msg: 'handler failed' })).toContainEqual(
      expect.objectContaining({ handler: 'Failing.boom' }),
    );
    expect(platform.logs.find({ level: 'error', msg: 'error hook failed' })).toContainEqual(
      expect.objectContaining({ hook: 'Failing.failed' }),
    );
  });

  it('answers nothing for an @OnEvent listener that fails, though its hooks hear of it', async () => {
    const plain = await platform.person('alice').say('plain');
    await platform.settle();
    expect(platform.bot.messages({ replyTo: plain })).toHaveLength(0);
    expect(trail).toContain('class hook: event kaput (event)');
    expect(trail).toContain('onError: event kaput (event)');
  });

  it('lets a hook that answered replace errorReply', async () => {
    const answer = await platform.person('alice').invoke('quota');
    expect(answer.content).toBe('Too many today.');
    const view = await platform.control.interaction(answer.interaction?.id ?? '');
    expect(view.answers.map((m) => m.content)).toEqual(['Too many today.']);
  });

  it('fails a handler whose middleware calls next() twice, and stops one whose middleware does not call it', async () => {
    const twice = await platform.person('alice').say('!twice');
    const stopped = await platform.person('alice').say('!stopped');
    await platform.settle();
    expect(platform.bot.messages({ replyTo: twice }).map((m) => m.content)).toEqual(['twice', 'Broke on our side.']);
    expect(platform.bot.messages({ replyTo: stopped })).toHaveLength(0);
  });
});

describe('errorReply: false', () => {
  it('says nothing to the person when a handler fails', async () => {
    const platform = await createTestPlatform({ handlers: [Failing], errorReply: false });
    try {
      const boom = await platform.person('alice').say('!boom');
      await platform.settle();
      expect(platform.bot.messages({ replyTo: boom })).toHaveLength(0);
      expect(platform.logs.find({ level: 'error', msg: 'handler failed' })).toContainEqual(
        expect.objectContaining({ handler: 'Failing.boom' }),
      );
    } finally {
      await platform.close();
    }
  });
});

class Hangs {
  @OnMessage('!hang')
  hang() {
    trail.push('hanging');
    return new Promise(() => {});
  }
}

describe('handlerTimeoutMs', () => {
  it("fails a handler 30 s (the default) after it started, on the bot's clock", async () => {
    const clock = new TestClock('2026-03-02T09:00:00Z');
    const platform = await createTestPlatform({ handlers: [Hangs], clock });
    try {
      const hang = await platform.person('alice').say('!hang');
      await until(() => trail.includes('hanging'), 'the handler to start');
      clock.advance(29_999);
      expect(platform.logs.find({ msg: 'handler failed' })).toEqual([]);
      clock.advance(1);
      expect((await platform.bot.nextMessage({ replyTo: hang })).content).toBe(
        'Sorry, something went wrong while handling that. It has been logged.',
      );
      expect(platform.logs.find({ level: 'error', msg: 'handler failed' })).toContainEqual(
        expect.objectContaining({ err: expect.objectContaining({ code: 'BOARDBOT_HANDLER_TIMEOUT' }) }),
      );
    } finally {
      await platform.close();
    }
  });
});

/** Handlers that hold their worker until the test lets them go. */
const held: { board: string; release: () => void }[] = [];

class Holds {
  @OnMessage('!hold')
  async hold(ctx: MessageContext) {
    await new Promise<void>((release) => held.push({ board: ctx.boardId, release }));
  }
}

describe('concurrency', () => {
  it('runs 16 handlers at once by default: the 17th waits for a worker', async () => {
    const platform = await createTestPlatform({ handlers: [Holds] });
    try {
      const boards = ['general', 'random'];
      for (let i = 0; boards.length < 17; i++) boards.push((await platform.createBoard(`hold-${i}`)).name);
      // One board each: the events of a board run one at a time, those of different boards side by side.
      for (const board of boards) await platform.person('alice').say('!hold', { board });
      await until(() => platform.bot.runtime.pending === 17 && held.length === 16, '16 running and 1 waiting');
      held[0]?.release();
      await until(() => held.length === 17, 'the 17th to start once a worker is free');
      for (const h of held) h.release();
      await platform.settle();
    } finally {
      for (const h of held) h.release();
      await platform.close();
    }
  });
});
