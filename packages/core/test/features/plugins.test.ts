import {
  Command,
  type CommandContext,
  definePlugin,
  type HandlerContext,
  Injectable,
  type MessageContext,
  OnMessage,
} from '@boardbot/core';
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

class Echo {
  @OnMessage(/^echo (.+)$/)
  echo(ctx: MessageContext) {
    return ctx.match?.[1];
  }
}

describe('plugins against the emulator', () => {
  it('contributes a command and a guard that runs before the bot’s own handlers', async () => {
    const platform = await createTestPlatform({ handlers: [Echo], plugins: [blocking({ usernames: ['bob'] })] });
    try {
      expect(platform.bot.runtime.commands.map((c) => c.name)).toContain('blocked');
      expect((await platform.person('alice').invoke('blocked')).content).toBe('1 blocked');
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
