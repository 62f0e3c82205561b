import {
  Command,
  type CommandContext,
  createBot,
  definePlugin,
  type HandlerContext,
  Injectable,
  type MessageContext,
  OnMessage,
  type Scoped,
  ServiceKey,
  UseGuards,
} from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { createTestPlatform } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';

class BlockList {
  readonly users = new Set<string>();
}

@Command({ name: 'blocked', description: 'How many people the bot ignores' })
@Injectable()
class Blocked {
  constructor(private readonly list: BlockList) {}
  run(_ctx: CommandContext) {
    return `${this.list.users.size} blocked`;
  }
}

/** A plugin with typed options: a command, a provider, a guard for every handler, and a start hook. */
const blocking = definePlugin((options: { usernames: string[] }) => {
  const list = new BlockList();
  return {
    name: 'blocking',
    handlers: [Blocked],
    providers: [{ provide: BlockList, useValue: list }],
    guards: [
      (ctx: HandlerContext) => {
        const name = ctx.kind === 'command' ? ctx.user.username : (ctx.author?.username ?? '');
        return !options.usernames.includes(name) || 'You are blocked here.';
      },
    ],
    onStart: () => {
      for (const u of options.usernames) list.users.add(u);
    },
  };
});

/** A class of the bot's own that injects the plugin's provider. */
@Command({ name: 'listsize', description: 'The block list, seen from the bot' })
@Injectable()
class ListSize {
  constructor(private readonly list: BlockList) {}
  run() {
    return `the bot sees ${this.list.users.size}`;
  }
}

class Echo {
  @OnMessage(/^echo (.+)$/)
  echo(ctx: MessageContext) {
    return ctx.match?.[1];
  }
}

describe('plugins against the emulator', () => {
  it('contributes a command registered with the bot’s, a provider the bot’s classes inject, and a guard before every handler', async () => {
    const platform = await createTestPlatform({
      handlers: [Echo, ListSize],
      plugins: [blocking({ usernames: ['bob'] })],
    });
    try {
      // The plugin's command is registered with the bot's, on the platform.
      const registered = (await platform.control.apps())[0]?.commands.map((c) => c.name);
      expect(registered).toEqual(expect.arrayContaining(['blocked', 'listsize']));
      expect((await platform.person('alice').invoke('blocked')).content).toBe('1 blocked');
      // The bot's own class injects the plugin's provider: the same instance.
      expect((await platform.person('alice').invoke('listsize')).content).toBe('the bot sees 1');
      expect((await platform.person('bob').invoke('blocked')).content).toBe('You are blocked here.');
      const fromBob = await platform.person('bob').say('echo hi');
      expect((await platform.bot.nextMessage({ replyTo: fromBob })).content).toBe('You are blocked here.');
      const fromAlice = await platform.person('alice').say('echo hi');
      expect((await platform.bot.nextMessage({ replyTo: fromAlice })).content).toBe('hi');
    } finally {
      await platform.close();
    }
  });
});

/** What the bot's and the plugin's middleware, guards, hooks and handlers did, in order. */
const trail: string[] = [];

/** The plugin's service: a greeting, set in `setup`. */
const GREETING = new ServiceKey<{ text: string }>('greeting');

/** What a handler opens through `ctx.session(Greeting)`: the plugin's service, for the run's person. */
const Greeting: Scoped<string> = {
  open: (scope) => `${scope.services.get(GREETING).text} (${scope.userId === undefined ? 'nobody' : 'a person'})`,
};

let release: () => void = () => {};

class Greeter {
  @OnMessage('!greet')
  @UseGuards(() => {
    trail.push('handler guard');
    return true;
  })
  greet(ctx: MessageContext) {
    trail.push('handler');
    return ctx.session(Greeting);
  }

  @OnMessage('!slow')
  async slow() {
    await new Promise<void>((resolve) => {
      release = resolve;
      trail.push('slow handler waits');
    });
    trail.push('slow handler finished');
  }
}

const tracing = definePlugin((options: { greeting: string }) => ({
  name: 'boardbot-plugin-tracing',
  guards: [
    () => {
      trail.push('plugin guard');
      return true;
    },
  ],
  middleware: [
    async (_ctx, next) => {
      trail.push('plugin middleware');
      await next();
    },
  ],
  setup: ({ services }) => {
    services.set(GREETING, { text: options.greeting });
  },
  onStart: ({ log }) => {
    log.info({ greeting: options.greeting }, 'tracing plugin ready');
  },
  onStop: () => {
    trail.push('plugin onStop');
  },
}));

describe('a plugin around the bot’s own handlers', () => {
  it("runs its guards before the handler's own, and its middleware after the bot's use() ones", async () => {
    const platform = await createTestPlatform({
      bot: (base) =>
        createBot({ ...base, handlers: [Greeter], plugins: [tracing({ greeting: 'Hi' })] }).use(async (_ctx, next) => {
          trail.push('bot middleware');
          await next();
        }),
    });
    try {
      trail.length = 0;
      const greet = await platform.person('alice').say('!greet');
      expect((await platform.bot.nextMessage({ replyTo: greet })).content).toBe('Hi (a person)');
      expect(trail).toEqual(['plugin guard', 'handler guard', 'bot middleware', 'plugin middleware', 'handler']);
      expect(platform.logs.find({ level: 'info', msg: 'tracing plugin ready' })).toContainEqual(
        expect.objectContaining({ greeting: 'Hi' }),
      );
    } finally {
      await platform.close();
    }
  });

  it('sets its services in setup, and runs onStop while the bot stops, after its handlers finished', async () => {
    const platform = await createTestPlatform({ handlers: [Greeter], plugins: [tracing({ greeting: 'Hello' })] });
    try {
      trail.length = 0;
      await platform.person('alice').say('!slow');
      await until(() => trail.includes('slow handler waits'), 'the slow handler to start');
      const stopped = platform.bot.runtime.stop();
      // Still waiting for the handler: onStop has not run.
      await until(() => platform.bot.runtime.state === 'stopping', 'the bot to be stopping');
      const lifecycle = () => trail.filter((t) => !t.startsWith('plugin guard') && !t.startsWith('plugin middleware'));
      expect(lifecycle()).toEqual(['slow handler waits']);
      release();
      await stopped;
      expect(lifecycle()).toEqual(['slow handler waits', 'slow handler finished', 'plugin onStop']);
    } finally {
      await platform.close();
    }
  });
});
