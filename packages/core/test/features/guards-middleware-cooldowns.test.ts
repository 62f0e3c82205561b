import {
  type AnyContext,
  type CanActivate,
  Command,
  type CommandContext,
  Cooldown,
  createBot,
  type HandlerContext,
  Injectable,
  type MessageContext,
  type Middleware,
  OnError,
  OnEvent,
  OnMessage,
  OnReady,
  Option,
  UseGuards,
} from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { Matches } from 'class-validator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anotherInstance } from './support.js';

// The promises of docs/guards-middleware-cooldowns.md, each through the real runtime on the emulator.

/** What the guards, middleware, hooks and handlers of this file did, in order. */
const trail: string[] = [];
beforeEach(() => {
  trail.length = 0;
});

/** The trail without the @OnEvent listener, which hears every message the bot's answers post too. */
function aroundCommands(): string[] {
  return trail.filter((t) => t !== 'event listener');
}

const DAY_MS = 24 * 60 * 60 * 1000;

class WordOptions {
  // The platform cannot check a pattern: the options class does, after the guards.
  @Option({ description: 'A lowercase word' })
  @Matches(/^[a-z]+$/, { message: 'word must be lowercase letters' })
  word!: string;
}

function classGuard(ctx: HandlerContext) {
  trail.push(`class guard, options ${JSON.stringify(ctx.kind === 'command' ? ctx.options : null)}`);
  // Denies on random: a denied run must not use up the cooldown.
  return ctx.kind !== 'command' || ctx.boardId !== randomId || 'Not on random.';
}

function methodGuard() {
  trail.push('method guard');
  return true;
}

let randomId = '';

@Command({ name: 'ordered', description: 'Records the order of the policies', options: WordOptions })
@UseGuards(classGuard)
@Cooldown({ ms: DAY_MS })
class Ordered {
  @UseGuards(methodGuard)
  run(_ctx: CommandContext<WordOptions>, { word }: WordOptions) {
    trail.push('handler');
    return `ordered ${word}`;
  }
}

/** Two stacked guard decorators: the one nearest the class applies first, so its guards run first. */
@Command({ name: 'stacked', description: 'Stacked guards' })
@UseGuards(() => {
  trail.push('outer');
})
@UseGuards(
  () => {
    trail.push('inner 1');
  },
  () => {
    trail.push('inner 2');
  },
)
class Stacked {
  run() {
    return 'stacked';
  }
}

/** A guard that says no without words. */
function never() {
  return false;
}

@Command({ name: 'closed', description: 'Always denied' })
@UseGuards(never)
class Closed {
  run() {
    return 'open';
  }
}

class AllowList {
  readonly usernames = new Set(['alice']);
}

/** A guard class built by the container, with a provider, deciding asynchronously. */
@Injectable()
class Allowed implements CanActivate {
  static built = 0;
  constructor(private readonly list: AllowList) {
    Allowed.built++;
  }
  async canActivate(ctx: HandlerContext) {
    const name = ctx.kind === 'command' ? ctx.user.username : ctx.author?.username;
    return Promise.resolve(this.list.usernames.has(name ?? ''));
  }
}

class Listeners {
  @OnMessage('!quiet')
  @UseGuards(never)
  quiet() {
    return 'never said';
  }

  @OnMessage('!allowed')
  @UseGuards(Allowed)
  allowed() {
    return 'allowed';
  }

  @OnMessage('!also-allowed')
  @UseGuards(Allowed)
  alsoAllowed() {
    return 'also allowed';
  }

  // Per person (the default): a webhook's messages count per webhook name.
  @OnMessage('!wave')
  @Cooldown({ ms: 60_000 })
  wave(ctx: MessageContext) {
    return `wave ${ctx.authorName}`;
  }

  @OnMessage('!faulty')
  @UseGuards(() => {
    throw new Error('the guard broke');
  })
  faulty() {
    return 'never said';
  }

  // At most 2 a window per board, however many people cheer.
  @OnMessage('!cheer')
  @Cooldown({ ms: 60_000, uses: 2, per: 'board' })
  cheer(ctx: MessageContext) {
    return `cheers ${ctx.authorName}`;
  }
}

@Command({ name: 'global', description: 'Once a day for the whole app' })
@Cooldown({ ms: DAY_MS, per: 'app' })
class Global {
  run() {
    return 'global';
  }
}

/** One cooldown on the class; one method has its own, which wins. */
@Cooldown({ ms: 60_000 })
class Shared {
  @OnMessage('!first')
  first() {
    return 'first';
  }

  @OnMessage('!second')
  second() {
    return 'second';
  }

  @OnMessage('!third')
  @Cooldown({ ms: 60_000, uses: 2 })
  third() {
    return 'third';
  }
}

/** Guards, a cooldown and middleware around it, none of which apply to an @OnEvent listener. */
@UseGuards(never)
@Cooldown({ ms: DAY_MS, per: 'app' })
class Raw {
  static readyRan = 0;

  @OnEvent('message.create')
  created() {
    trail.push('event listener');
  }

  @OnReady()
  ready() {
    Raw.readyRan++;
  }
}

const first: Middleware = async (ctx, next) => {
  trail.push(`middleware 1 (${ctx.kind})`);
  await next();
  trail.push('middleware 1 after');
};
const second: Middleware = async (ctx, next) => {
  trail.push(`middleware 2 (${ctx.kind})`);
  await next();
};

describe('guards, cooldowns and middleware around a handler', () => {
  let platform: TestPlatform;
  let clock: TestClock;

  beforeAll(async () => {
    clock = new TestClock('2026-03-02T09:00:00Z');
    platform = await createTestPlatform({
      bot: (base) =>
        createBot({
          ...base,
          clock,
          handlers: [Ordered, Stacked, Closed, Listeners, Global, Shared, Raw],
          providers: [AllowList],
        })
          .use(first)
          .use(second),
    });
    randomId = (await platform.board('random')).id;
  });
  afterAll(() => platform?.close());

  it("runs the class's guard, the method's, then (options converted) the cooldown, the middleware in use() order, the handler", async () => {
    const answer = await platform.person('alice').invoke('ordered', { word: 'abc' });
    expect(answer.content).toBe('ordered abc');
    // The answer goes out while the middleware still wraps the handler: let the run finish.
    await platform.settle();
    expect(aroundCommands()).toEqual([
      // Guards run before the options are converted: ctx.options is still empty.
      'class guard, options {}',
      'method guard',
      'middleware 1 (command)',
      'middleware 2 (command)',
      'handler',
      'middleware 1 after',
    ]);
  });

  it('counts only runs that passed the guards and the option checks, and holds the next for the whole window', async () => {
    const bob = platform.person('bob');
    expect((await bob.invoke('ordered', { word: 'abc' }, { board: 'random' })).content).toBe('Not on random.');
    expect((await bob.invoke('ordered', { word: 'ABC' })).content).toBe(
      'Sorry, /ordered cannot run:\n- word must be lowercase letters',
    );
    // Neither used up the window: the cooldown ran after them, and middleware never saw them.
    expect(trail.filter((t) => t.startsWith('middleware'))).toEqual([]);
    expect((await bob.invoke('ordered', { word: 'abc' })).content).toBe('ordered abc');
    await platform.settle();
    trail.length = 0;
    expect((await bob.invoke('ordered', { word: 'abc' })).content).toBe(
      'Slow down: /ordered can be used again in 86400 s.',
    );
    await platform.settle();
    // A held run stops before the middleware.
    expect(aroundCommands()).toEqual(['class guard, options {}', 'method guard']);
  });

  it('runs the guards of one @UseGuards in the order given, and stacked @UseGuards from the one nearest the class', async () => {
    expect((await platform.person('alice').invoke('stacked')).content).toBe('stacked');
    expect(aroundCommands().filter((t) => !t.startsWith('middleware'))).toEqual(['inner 1', 'inner 2', 'outer']);
  });

  it('answers a command whose guard returns false with the default words, and logs the denial by guard name', async () => {
    expect((await platform.person('alice').invoke('closed')).content).toBe('You are not allowed to do that here.');
    expect(platform.logs.find({ level: 'info', msg: 'guard denied' })).toContainEqual(
      expect.objectContaining({ guard: 'never', handler: 'Closed.run' }),
    );
  });

  it('keeps a message listener whose guard returns false silent', async () => {
    const quiet = await platform.person('alice').say('!quiet');
    await platform.settle();
    expect(platform.bot.messages({ replyTo: quiet })).toHaveLength(0);
    expect(platform.logs.find({ level: 'info', msg: 'guard denied' })).toContainEqual(
      expect.objectContaining({ guard: 'never', handler: 'Listeners.quiet' }),
    );
  });

  it('builds a guard class once, with its providers, and awaits its answer', async () => {
    const fromAlice = await platform.person('alice').say('!allowed');
    expect((await platform.bot.nextMessage({ replyTo: fromAlice })).content).toBe('allowed');
    const again = await platform.person('alice').say('!also-allowed');
    expect((await platform.bot.nextMessage({ replyTo: again })).content).toBe('also allowed');
    expect(Allowed.built).toBe(1);
    const fromBob = await platform.person('bob').say('!allowed');
    await platform.settle();
    expect(platform.bot.messages({ replyTo: fromBob })).toHaveLength(0);
    expect(platform.logs.find({ msg: 'guard denied' })).toContainEqual(
      expect.objectContaining({ guard: 'Allowed', handler: 'Listeners.allowed' }),
    );
  });

  it('treats a guard that throws as a failure of the handler', async () => {
    const faulty = await platform.person('alice').say('!faulty');
    expect((await platform.bot.nextMessage({ replyTo: faulty })).content).toBe(
      'Sorry, something went wrong while handling that. It has been logged.',
    );
    expect(platform.logs.find({ level: 'error', msg: 'handler failed' })).toContainEqual(
      expect.objectContaining({
        handler: 'Listeners.faulty',
        err: expect.objectContaining({ message: 'the guard broke' }),
      }),
    );
  });

  it("counts a per-board cooldown's uses for everyone on the board, skips a held listener silently, and frees it on the bot's clock", async () => {
    const alice = platform.person('alice');
    const bob = platform.person('bob');
    const one = await alice.say('!cheer');
    const two = await bob.say('!cheer');
    const three = await bob.say('!cheer');
    const elsewhere = await bob.say('!cheer', { board: 'random' });
    expect((await platform.bot.nextMessage({ replyTo: one })).content).toBe('cheers Alice');
    expect((await platform.bot.nextMessage({ replyTo: two })).content).toBe('cheers Bob');
    expect((await platform.bot.nextMessage({ replyTo: elsewhere })).content).toBe('cheers Bob');
    await platform.settle();
    expect(platform.bot.messages({ replyTo: three })).toHaveLength(0);
    expect(platform.logs.find({ level: 'info', msg: 'cooldown holds' })).toContainEqual(
      expect.objectContaining({ handler: 'Listeners.cheer' }),
    );

    clock.advance(60_000);
    const later = await bob.say('!cheer');
    expect((await platform.bot.nextMessage({ replyTo: later })).content).toBe('cheers Bob');
  });

  it('holds a per-app cooldown for everyone, on every board', async () => {
    expect((await platform.person('alice').invoke('global')).content).toBe('global');
    expect((await platform.person('bob').invoke('global', {}, { board: 'random' })).content).toBe(
      'Slow down: /global can be used again in 86400 s.',
    );
  });

  it("gives each handler of a class its own count of the class's cooldown, and a method's own cooldown wins", async () => {
    const carl = platform.person('carl');
    const says = ['!first', '!first', '!second', '!third', '!third', '!third'];
    const sent = [];
    for (const text of says) sent.push(await carl.say(text));
    await platform.settle();
    const answered = sent.map((m) => platform.bot.messages({ replyTo: m })[0]?.content ?? null);
    expect(answered).toEqual(['first', null, 'second', 'third', 'third', null]);
  });

  it("counts a listener's per-person cooldown for each webhook name apart", async () => {
    const general = (await platform.board('general')).id;
    const post = (name: string) => platform.control.postMessage(general, { webhook_name: name, content: '!wave' });
    const [ci, ciAgain, deploy] = [await post('ci'), await post('ci'), await post('deploy')];
    await platform.settle();
    const answered = [ci, ciAgain, deploy].map((m) => platform.bot.messages({ replyTo: m })[0]?.content ?? null);
    expect(answered).toEqual(['wave ci', null, 'wave deploy']);
  });

  it('runs @OnEvent and @OnReady listeners with no guard, cooldown or middleware', async () => {
    expect(Raw.readyRan).toBe(1);
    await platform.person('alice').say('one');
    await platform.person('alice').say('two');
    await platform.settle();
    // The class's guard denies everything and its cooldown allows one a day: neither applied.
    expect(trail.filter((t) => t === 'event listener')).toHaveLength(2);
    expect(trail.some((t) => t.includes('(event)'))).toBe(false);
  });
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

class Waves {
  @OnMessage('!wave')
  @Cooldown({ ms: DAY_MS })
  wave(ctx: MessageContext) {
    return `wave ${ctx.authorName}`;
  }
}

describe('cooldown counts', () => {
  it('live in the process: the bot that replaces a stopped one starts with none', async () => {
    const platform = await createTestPlatform({ handlers: [Waves] });
    const next = anotherInstance(platform, { handlers: [Waves] });
    try {
      const alice = platform.person('alice');
      expect((await platform.bot.nextMessage({ replyTo: await alice.say('!wave') })).content).toBe('wave Alice');
      const held = await alice.say('!wave');
      await platform.settle();
      expect(platform.bot.messages({ replyTo: held })).toHaveLength(0);

      await platform.bot.runtime.stop();
      await next.start();
      const again = await alice.say('!wave');
      expect((await platform.bot.nextMessage({ replyTo: again })).content).toBe('wave Alice');
    } finally {
      await next.stop();
      await platform.close();
    }
  });
});
