import {
  type CanActivate,
  Command,
  type CommandContext,
  Cooldown,
  createBot,
  type HandlerContext,
  Injectable,
  type Middleware,
  OnEvent,
  OnMessage,
  OnReady,
  Option,
  UseGuards,
} from '@boardbot/core';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { Matches } from 'class-validator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// docs/guards-middleware-cooldowns.md, "The order of things" and "Guards", through the runtime on the
// emulator. Cooldowns: cooldowns.test.ts; failures and the createBot options: handler-failures.test.ts.

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

  @OnMessage('!faulty')
  @UseGuards(() => {
    throw new Error('the guard broke');
  })
  faulty() {
    return 'never said';
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
  // Stops /paused without answering, as a maintenance switch that forgot to reply would.
  if (ctx.kind === 'command' && ctx.command.name === 'paused') return;
  await next();
};

@Command({ name: 'paused', description: 'Stopped by middleware' })
class Paused {
  run() {
    trail.push('paused handler');
    return 'not paused';
  }
}

describe('guards, the cooldown and middleware around a handler', () => {
  let platform: TestPlatform;
  let clock: TestClock;

  beforeAll(async () => {
    clock = new TestClock('2026-03-02T09:00:00Z');
    platform = await createTestPlatform({
      bot: (base) =>
        createBot({
          ...base,
          clock,
          handlers: [Ordered, Stacked, Closed, Listeners, Raw, Paused],
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

  it('stops a command whose middleware does not call next(): no handler, and the person gets no answer', async () => {
    const started = await platform.person('alice').start('paused');
    await platform.settle();
    expect(aroundCommands()).toEqual(['middleware 1 (command)', 'middleware 2 (command)', 'middleware 1 after']);
    expect(platform.bot.messages({ interaction: started.id })).toEqual([]);
    expect(platform.logs.find({ level: 'warn', msg: 'command finished without replying' })).toContainEqual(
      expect.objectContaining({ handler: 'Paused.run' }),
    );
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

  it('runs @OnEvent and @OnReady listeners with no guard, cooldown or middleware', async () => {
    expect(Raw.readyRan).toBe(1);
    // Start from a quiet bot: the answers of earlier tests raise events too.
    await platform.settle();
    trail.length = 0;
    await platform.person('alice').say('one');
    await platform.person('alice').say('two');
    await platform.settle();
    // The class's guard denies everything and its cooldown allows one a day: neither applied.
    expect(trail.filter((t) => t === 'event listener')).toHaveLength(2);
    expect(trail.some((t) => t.includes('(event)'))).toBe(false);
  });
});
