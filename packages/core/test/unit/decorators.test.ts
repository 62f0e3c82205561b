import {
  type AnyContext,
  Command,
  type CommandContext,
  Cooldown,
  Injectable,
  type MessageContext,
  OnError,
  OnEvent,
  OnMessage,
  OnMessageDelete,
  OnMessageEdit,
  OnReady,
  Option,
  Subcommand,
  UseGuards,
} from '@boardbot/core';
import {
  COMMAND_KEY,
  COOLDOWN_KEY,
  ERROR_HOOK_KEY,
  EVENT_LISTENERS_KEY,
  GUARDS_KEY,
  INJECTABLE_KEY,
  MESSAGE_LISTENERS_KEY,
  OPTIONS_KEY,
  SUBCOMMANDS_KEY,
} from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

const allowAll = () => true;
const denyAll = () => 'no';

class RollOptions {
  @Option({ description: 'Sides', name: 'sides' }) sides = 6;
  @Option({ description: 'Who', type: 'user', choices: ['a', { name: 'B', value: 'b' }] }) who?: string;
}

@Command({ name: 'roll', description: 'Roll a die', options: RollOptions })
@UseGuards(allowAll)
@Cooldown({ ms: 5000 })
class Roll {
  run(ctx: CommandContext<RollOptions>) {
    return ctx.reply('x');
  }
}

@Command({ name: 'admin', description: 'Admin' })
class Admin {
  @Subcommand({ name: 'kick', description: 'Kick', options: RollOptions })
  @UseGuards(denyAll)
  @Cooldown({ ms: 1000, uses: 3, per: 'board' })
  kick(_ctx: CommandContext<RollOptions>, _o: RollOptions) {}

  @Subcommand({ name: 'ban', description: 'Ban' })
  ban(_ctx: CommandContext) {}

  @OnError()
  failed(_e: unknown, _ctx: AnyContext) {}
}

class Listener {
  @OnMessage(/^hi/i)
  hi(_ctx: MessageContext) {}

  @OnMessage('!', { includeOwn: true })
  bang(_ctx: MessageContext) {}

  @OnMessageEdit()
  edited(_ctx: MessageContext) {}

  @OnMessageDelete()
  deleted(_ctx: MessageContext) {}

  @OnEvent('message.create')
  raw() {}

  @OnReady()
  ready() {}
}

@Injectable()
class Service {}

describe('decorator metadata', () => {
  it('@Command stores name, description and the options class on the class', () => {
    expect(Reflect.getMetadata(COMMAND_KEY, Roll)).toEqual({
      name: 'roll',
      description: 'Roll a die',
      options: RollOptions,
    });
    expect(Reflect.getMetadata(COMMAND_KEY, Admin)).toEqual({ name: 'admin', description: 'Admin' });
  });

  it('@Subcommand lists each method with its name and options class', () => {
    expect(Reflect.getMetadata(SUBCOMMANDS_KEY, Admin)).toEqual([
      { name: 'kick', description: 'Kick', method: 'kick', options: RollOptions },
      { name: 'ban', description: 'Ban', method: 'ban' },
    ]);
  });

  it('@Option lists each property with its wire name, explicit type and normalised choices', () => {
    expect(Reflect.getMetadata(OPTIONS_KEY, RollOptions)).toEqual([
      { property: 'sides', name: 'sides', description: 'Sides' },
      {
        property: 'who',
        name: 'who',
        description: 'Who',
        type: 'user',
        choices: [
          { name: 'a', value: 'a' },
          { name: 'B', value: 'b' },
        ],
      },
    ]);
  });

  it('message-listener decorators store event, method, matcher and includeOwn (and a pattern for a regex)', () => {
    const list = Reflect.getMetadata(MESSAGE_LISTENERS_KEY, Listener);
    const pattern = { engine: 'js', maxLength: 2000, allowSlowRegex: false, where: 'Listener.hi' };
    expect(list).toEqual([
      {
        event: 'message.create',
        method: 'hi',
        matcher: /^hi/i,
        pattern: expect.objectContaining({ regex: /^hi/i, options: pattern }),
        includeOwn: false,
      },
      { event: 'message.create', method: 'bang', matcher: '!', includeOwn: true },
      { event: 'message.edit', method: 'edited', includeOwn: false },
      { event: 'message.delete', method: 'deleted', includeOwn: false },
    ]);
  });

  it('@OnEvent and @OnReady store the wire event name', () => {
    expect(Reflect.getMetadata(EVENT_LISTENERS_KEY, Listener)).toEqual([
      { event: 'message.create', method: 'raw' },
      { event: 'ready', method: 'ready' },
    ]);
  });

  it('@UseGuards stores guards on the class or on the method', () => {
    expect(Reflect.getMetadata(GUARDS_KEY, Roll)).toEqual([allowAll]);
    expect(Reflect.getMetadata(GUARDS_KEY, Admin, 'kick')).toEqual([denyAll]);
    expect(Reflect.getMetadata(GUARDS_KEY, Admin, 'ban')).toBeUndefined();
  });

  it('@Cooldown stores window, uses and scope with defaults', () => {
    expect(Reflect.getMetadata(COOLDOWN_KEY, Roll)).toEqual({ ms: 5000, uses: 1, per: 'user' });
    expect(Reflect.getMetadata(COOLDOWN_KEY, Admin, 'kick')).toEqual({ ms: 1000, uses: 3, per: 'board' });
  });

  it('@Cooldown rejects a window that cannot work', () => {
    expect(() => Cooldown({ ms: 0 })).toThrow(expect.objectContaining({ code: 'BOARDBOT_INVALID_HANDLER' }));
    expect(() => Cooldown({ ms: 10, uses: 0 })).toThrow(/uses an integer/);
    // docs/guards-middleware-cooldowns.md: ms ≤ 0, or uses not a whole number ≥ 1.
    expect(() => Cooldown({ ms: -1 })).toThrow(expect.objectContaining({ code: 'BOARDBOT_INVALID_HANDLER' }));
    expect(() => Cooldown({ ms: 10, uses: 1.5 })).toThrow(
      expect.objectContaining({ code: 'BOARDBOT_INVALID_HANDLER' }),
    );
  });

  it('@OnError stores the hook method name, @Injectable marks the class', () => {
    expect(Reflect.getMetadata(ERROR_HOOK_KEY, Admin)).toBe('failed');
    expect(Reflect.getMetadata(INJECTABLE_KEY, Service)).toBe(true);
  });

  it('metadata lives on each class: a subclass extends its parent without changing it', () => {
    class More extends Listener {
      @OnMessage('?')
      question(_ctx: MessageContext) {}
    }
    expect(Reflect.getMetadata(MESSAGE_LISTENERS_KEY, More)).toHaveLength(5);
    expect(Reflect.getMetadata(MESSAGE_LISTENERS_KEY, Listener)).toHaveLength(4);
  });
});
