import {
  Command,
  type CommandContext,
  Cooldown,
  HelpCommand,
  Option,
  type Plugin,
  Subcommand,
  UseGuards,
} from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { until } from '@boardbot/test-support';
import { IsInt, IsOptional, Matches, Max, MaxLength, Min } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

class RollOptions {
  @Option({ description: 'Sides on the die' }) @IsOptional() @IsInt() @Min(2) @Max(1000) sides = 6;
}

@Command({ name: 'roll', description: 'Roll a die', options: RollOptions, text: true })
class Roll {
  run(ctx: CommandContext<RollOptions>, { sides }: RollOptions) {
    return `${ctx.via}: rolled ${sides}`;
  }
}

/** One option of every type, all required, in this order. */
class EveryOptions {
  @Option({ description: 'A word' }) word!: string;
  @Option({ description: 'A count' }) @IsInt() count!: number;
  @Option({ description: 'A ratio' }) ratio!: number;
  @Option({ description: 'Loud or not' }) loud!: boolean;
  @Option({ description: 'A person', type: 'user' }) who!: string;
  @Option({ description: 'A board', type: 'board' }) where!: string;
}

@Command({ name: 'every', description: 'Every option type', options: EveryOptions, text: true })
class Every {
  run(_ctx: CommandContext<EveryOptions>, o: EveryOptions) {
    return JSON.stringify(o);
  }
}

class SayOptions {
  @Option({ description: 'What to say' }) word!: string;
}

@Command({ name: 'say', description: 'Says one word', options: SayOptions, text: true })
class Say {
  run(_ctx: CommandContext<SayOptions>, { word }: SayOptions) {
    return `[${word}]`;
  }
}

class PaintOptions {
  @Option({ description: 'A colour like #ff8800' })
  @Matches(/^#[0-9a-f]{6}$/i, { message: 'colour must look like #ff8800' })
  colour!: string;
}

@Command({ name: 'paint', description: 'Paint', options: PaintOptions, text: true })
class Paint {
  run(_ctx: CommandContext<PaintOptions>, { colour }: PaintOptions) {
    return `Painted ${colour}`;
  }
}

class AddOptions {
  @Option({ description: 'The note', rest: true }) @MaxLength(40) text!: string;
}

@Command({ name: 'note', description: 'Notes', text: true })
class Notes {
  @Subcommand({ name: 'add', description: 'Add a note', options: AddOptions })
  add(_ctx: CommandContext<AddOptions>, { text }: AddOptions) {
    return `Noted: ${text}`;
  }
  @Subcommand({ name: 'list', description: 'List notes' })
  list() {
    return 'No notes';
  }
}

@Command({ name: 'daily', description: 'Once a minute', text: true })
@Cooldown({ ms: 60_000, per: 'user' })
class Daily {
  run(ctx: CommandContext) {
    return `daily bonus (${ctx.via})`;
  }
}

@Command({ name: 'parrot', description: 'Says the word as it is', options: SayOptions, text: true })
class Parrot {
  run(_ctx: CommandContext<SayOptions>, { word }: SayOptions) {
    return word;
  }
}

@Command({ name: 'guarded', description: 'Only for alice', text: true })
@UseGuards((ctx) => (ctx.kind === 'command' && ctx.user.username === 'alice') || 'Only alice may.')
class Guarded {
  run() {
    return 'welcome, alice';
  }
}

/** What the bot's middleware saw: each command run, by how it was invoked. */
const middlewareSaw: string[] = [];
const watching: Plugin = {
  name: 'watching',
  middleware: [
    async (ctx, next) => {
      if (ctx.kind === 'command') middlewareSaw.push(`${ctx.command.name} via ${ctx.via}`);
      await next();
    },
  ],
};

@Command({ name: 'secret', description: 'A slash command only' })
class Secret {
  run() {
    return 'The secret is 42';
  }
}

describe('text commands against the emulator', () => {
  let platform: Platform;
  let started: ReturnType<Platform['bot']>;

  beforeAll(async () => {
    platform = await TestPlatform.start();
    started = platform.bot({
      handlers: [Roll, Every, Say, Paint, Notes, Daily, Parrot, Guarded, Secret],
      plugins: [watching],
      // Refusals one after another to the same person are what these tests read (test/e2e/refusals.test.ts throttles).
      refusalIntervalMs: 0,
    });
    await started.bot.start();
  });

  afterAll(async () => {
    await started?.bot.stop();
    await platform?.close();
  });

  /** Posts as a person (alice unless told), then waits for the bot's reply to that message. */
  async function replyTo(content: string, user = platform.alice): Promise<Message> {
    const message = await platform.post(user, platform.general, content);
    let reply: Message | undefined;
    await until(async () => {
      reply = (await platform.messages(platform.general, 50)).find((m) => m.reply_to === message.id);
      return reply !== undefined;
    }, `a reply to "${content}"`);
    return reply as Message;
  }
  const say = async (content: string, user = platform.alice) => (await replyTo(content, user)).content;

  it('runs the same method as the slash command, says how it was invoked, and replies to the message', async () => {
    const reply = await replyTo('!roll 20');
    expect(reply).toMatchObject({ content: 'text: rolled 20', kind: 'reply' });
    expect(await say('!roll sides:20')).toBe('text: rolled 20');
    expect(await say('!roll')).toBe('text: rolled 6');
    expect(await say('!ROLL 4')).toBe('text: rolled 4');
    expect(await platform.ask(platform.alice, platform.general, 'roll', { sides: 20 })).toBe('slash: rolled 20');
  });

  it('takes every option type, positional in the order of the options class or named in any order', async () => {
    const { alice, bob, general } = platform;
    const shown = (o: object) => JSON.stringify(o);
    expect(await say('!every hello 3 2.5 true alice general')).toBe(
      shown({ word: 'hello', count: 3, ratio: 2.5, loud: true, who: alice.id, where: general.id }),
    );
    expect(await say('!every where:#general who:@bob loud:false ratio:-1 count:7 word:"two words"')).toBe(
      shown({ word: 'two words', count: 7, ratio: -1, loud: false, who: bob.id, where: general.id }),
    );
    expect(await say(`!every a 1 1 true ${bob.id} ${general.id}`)).toBe(
      shown({ word: 'a', count: 1, ratio: 1, loud: true, who: bob.id, where: general.id }),
    );
  });

  it('reads shell-style quotes and backslash escapes', async () => {
    expect(await say('!say "two words"')).toBe('[two words]');
    expect(await say(`!say 'single "quotes" keep'`)).toBe('[single "quotes" keep]');
    expect(await say('!say "an \\"escaped\\" quote"')).toBe('[an "escaped" quote]');
    expect(await say('!say two\\ words')).toBe('[two words]');
    expect(await say("!say don't")).toBe("[don't]");
    // A quoted colon is not a name: the whole argument is the word.
    expect(await say('!say "word:value"')).toBe('[word:value]');
    expect(await say('!say word\\:value')).toBe('[word:value]');
    expect(await say('!say "open')).toBe('Sorry, !say cannot run:\n- the " quote at ""open" is not closed');
  });

  it('refuses a missing required argument', async () => {
    expect(await say('!every hello')).toBe(
      'Sorry, !every cannot run:\n- count is required\n- ratio is required\n- loud is required\n' +
        '- who is required\n- where is required',
    );
  });

  it('refuses an unknown named argument and arguments left over', async () => {
    expect(await say('!roll 20 colour:red')).toBe(
      'Sorry, !roll cannot run:\n- colour is not an option of !roll (its options are sides)',
    );
    // Not a declared name: the argument is positional, and fills sides.
    expect(await say('!roll colour:red')).toBe('Sorry, !roll cannot run:\n- sides: expected an integer');
    expect(await say('!say two words')).toBe(
      'Sorry, !say cannot run:\n- too many arguments: "words" (!say takes 1 argument; quote an argument with spaces)',
    );
    expect(await say('!roll 3 sides:4')).toBe('Sorry, !roll cannot run:\n- sides is given twice');
  });

  it('makes the platform checks the bot makes for slash options: bounds, types, then the validators', async () => {
    expect(await say('!roll 1001')).toBe('Sorry, !roll cannot run:\n- sides: expected at most 1000');
    expect(await say('!roll 2.5')).toBe('Sorry, !roll cannot run:\n- sides: expected an integer');
    expect(await say('!every a 1 1 maybe alice general')).toBe('Sorry, !every cannot run:\n- loud: expected a boolean');
    expect(await say('!paint blue')).toBe('Sorry, !paint cannot run:\n- colour must look like #ff8800');
    expect(await say('!paint #00ff00')).toBe('Painted #00ff00');
    // A string without a maximum of its own takes 1000 characters at most, checked before its validators.
    expect(await say(`!paint ${'#'.repeat(1001)}`)).toBe(
      'Sorry, !paint cannot run:\n- colour: expected at most 1000 characters',
    );
    expect(await say(`!say ${'w'.repeat(1000)}`)).toBe(`[${'w'.repeat(1000)}]`);
  });

  it('refuses an ambiguous user (or board) name with the candidates, and a name nobody has', async () => {
    const { control, general } = platform;
    const one = await control.createUser({ username: 'sam1', display_name: 'Sam' });
    const two = await control.createUser({ username: 'sam2', display_name: 'Sam' });
    await control.setMember(general.id, one.id);
    await control.setMember(general.id, two.id);
    expect(await say('!every a 1 1 true Sam general')).toBe(
      `Sorry, !every cannot run:\n- who: "Sam" could be Sam (@sam1, ${one.id}), Sam (@sam2, ${two.id}); ` +
        'type the username or the id',
    );
    expect(await say('!every a 1 1 true sam2 general')).toContain(`"who":"${two.id}"`);
    // A username wins over display names.
    const carol = await control.createUser({ username: 'carol', display_name: 'bob' });
    await control.setMember(general.id, carol.id);
    expect(await say('!every a 1 1 true bob general')).toContain(`"who":"${platform.bob.id}"`);
    expect(await say('!every a 1 1 true nobody general')).toBe(
      'Sorry, !every cannot run:\n- who: no member of this board is called "nobody"',
    );
    const twin = await control.createBoard({ name: 'General' });
    const app = (await control.apps())[0];
    await control.install(app?.id ?? '', twin.id);
    expect(await say('!every a 1 1 true sam1 general')).toBe(
      `Sorry, !every cannot run:\n- where: "general" could be general (${general.id}), General (${twin.id}); type the id`,
    );
  });

  it('routes subcommands; a rest-of-line option takes the line as typed', async () => {
    expect(await say('!note add "buy milk"')).toBe('Noted: buy milk');
    expect(await say('!note add buy  milk "now"')).toBe('Noted: buy  milk "now"');
    expect(await say('!note list')).toBe('No notes');
    expect(await say('!note')).toBe('!note needs a subcommand: add, list.');
    expect(await say('!note remove 3')).toBe('!note has no subcommand "remove": add, list.');
  });

  it("runs the command's guards and the bot's middleware as for a slash invocation", async () => {
    expect(await say('!guarded', platform.bob)).toBe('Only alice may.');
    expect(await say('!guarded')).toBe('welcome, alice');
    expect(middlewareSaw).toContain('guarded via text');
    expect(middlewareSaw.filter((m) => m === 'guarded via text')).toHaveLength(1);
  });

  it('shares one cooldown between the slash and the text invocation', async () => {
    expect(await platform.ask(platform.bob, platform.random, 'daily')).toBe('daily bonus (slash)');
    expect(await say('!daily', platform.bob)).toMatch(/^Slow down: !daily can be used again in \d+ s\.$/);
  });

  it('ignores an unknown command, a slash-only command, an edit, and text from webhooks, bots and itself', async () => {
    const { control, general } = platform;
    const other = await control.createApp({ name: 'other-bot' });
    await control.install(other.app.id, general.id);
    // The bot's own message that looks like a command is not answered (it would answer itself forever).
    const own = await replyTo('!parrot "!roll 9"');
    expect(own.content).toBe('!roll 9');
    const edited = await platform.post(platform.alice, general, 'nothing yet');
    await control.editMessage(general.id, edited.id, '!roll 6');
    const ignored = [
      own,
      edited,
      // A name close to none of the bot's (a close one is answered with them: refusals.test.ts).
      await platform.post(platform.alice, general, '!zzyzx 3'),
      await platform.post(platform.alice, general, '!secret'),
      await control.postMessage(general.id, { webhook_name: 'ci', content: '!roll 3' }),
      await control.postMessage(general.id, { user_id: other.app.bot_user_id, content: '!roll 4' }),
    ];
    // Events of one board are handled in order: once this one is answered, the others were handled.
    expect(await say('!roll 5')).toBe('text: rolled 5');
    const replies = (await platform.messages(general, 100)).map((m) => m.reply_to);
    for (const m of ignored) expect(replies).not.toContain(m.id);
  });

  it('answers !help with the commands, and !help <command> with its options; help is not registered', async () => {
    const list = await say('!help');
    expect(list).toContain('/roll, !roll [sides]: Roll a die');
    expect(list).toContain('/note add, !note add <text...>: Add a note');
    expect(list).toContain('/secret: A slash command only');
    expect(list).toContain('Type !help <command> to see its options.');
    expect(await say('!help roll')).toBe(
      '/roll, !roll [sides]: Roll a die\n- sides (integer, 2 to 1000): Sides on the die',
    );
    const registered = (await platform.control.apps())[0]?.commands.map((c) => c.name);
    expect(registered).not.toContain('help');
  });
});

@Command({ name: 'plain', description: 'Not marked text' })
class Plain {
  run(ctx: CommandContext) {
    return `plain (${ctx.via})`;
  }
}

@Command({ name: 'slashonly', description: 'Opted out', text: false })
class SlashOnly {
  run() {
    return 'slash only';
  }
}

@Command({ name: 'help', description: 'My help', text: true })
class OwnHelp {
  run() {
    return 'my own help';
  }
}

describe('textCommands: { prefix, all }, and HelpCommand in the handlers', () => {
  it('makes every command a text command but those with text: false, on the prefix given; registers /help', async () => {
    const platform = await TestPlatform.start();
    const started = platform.bot({
      handlers: [Plain, SlashOnly, HelpCommand],
      textCommands: { prefix: '?', all: true },
    });
    try {
      await started.bot.start();
      const { general } = platform;
      const post = (content: string) => platform.post(platform.alice, general, content);
      const replyTo = async (message: Message) => {
        let reply: Message | undefined;
        await until(async () => {
          reply = (await platform.messages(general, 50)).find((m) => m.reply_to === message.id);
          return reply !== undefined;
        }, `a reply to "${message.content}"`);
        return reply?.content;
      };
      const ignored = [await post('?slashonly'), await post('!plain')];
      expect(await replyTo(await post('?plain'))).toBe('plain (text)');
      const replies = (await platform.messages(general, 50)).map((m) => m.reply_to);
      for (const m of ignored) expect(replies).not.toContain(m.id);
      expect(await replyTo(await post('?help'))).toBe(
        'Commands:\n/plain, ?plain: Not marked text\n/slashonly: Opted out\n' +
          '/help, ?help [command]: Lists the commands and their options\nType ?help <command> to see its options.',
      );
      const registered = (await platform.control.apps())[0]?.commands.map((c) => c.name);
      expect(registered).toContain('help');
      expect(await platform.ask(platform.bob, general, 'help', { command: 'plain' })).toBe(
        '/plain, ?plain: Not marked text',
      );
      await started.bot.stop();
      // A bot's own help command wins over the generated one.
      const own = platform.bot({ handlers: [OwnHelp], commandSync: 'off' });
      await own.bot.start();
      try {
        expect(await replyTo(await platform.post(platform.alice, general, '!help'))).toBe('my own help');
      } finally {
        await own.bot.stop();
      }
    } finally {
      await started.bot.stop();
      await platform.close();
    }
  });
});
