import {
  type AnyContext,
  Command,
  type CommandContext,
  Cooldown,
  Injectable,
  OnError,
  Option,
  Subcommand,
  UseGuards,
} from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

class Dice {
  rolls = 0;
  roll(sides: number) {
    this.rolls++;
    return sides; // a loaded die: tests know the answer
  }
}

class RollOptions {
  @Option({ description: 'Sides on the die' }) @IsOptional() @IsInt() @Min(2) @Max(1000) sides = 6;
}

@Command({ name: 'roll', description: 'Roll a die', options: RollOptions })
class Roll {
  constructor(private readonly dice: Dice) {}
  run(_ctx: CommandContext<RollOptions>, { sides }: RollOptions) {
    return `You rolled ${this.dice.roll(sides)}`;
  }
}

class PaintOptions {
  // The platform cannot check a pattern; the options class does.
  @Option({ description: 'A colour like #ff8800' })
  @Matches(/^#[0-9a-f]{6}$/i, { message: 'colour must look like #ff8800' })
  colour!: string;
}

@Command({ name: 'paint', description: 'Paint', options: PaintOptions })
class Paint {
  painted = 0;
  run(ctx: CommandContext<PaintOptions>) {
    this.painted++;
    return ctx.reply(`Painted ${ctx.options.colour}`);
  }
}

@Command({ name: 'secret', description: 'Only for alice' })
@UseGuards((ctx) => (ctx.kind === 'command' && ctx.user.username === 'alice') || 'Only alice may see the secret.')
class Secret {
  run() {
    return 'The secret is 42';
  }
}

@Command({ name: 'daily', description: 'Once a minute' })
@Cooldown({ ms: 60_000, per: 'user' })
class Daily {
  run() {
    return 'Here is your daily bonus';
  }
}

@Command({ name: 'boom', description: 'Fails' })
class Boom {
  static hooked: unknown[] = [];
  run(): string {
    throw new Error('kaput');
  }
  @OnError()
  failed(error: unknown, _ctx: AnyContext) {
    Boom.hooked.push(error);
  }
}

@Command({ name: 'hang', description: 'Never ends' })
class Hang {
  run() {
    return new Promise(() => {});
  }
}

class NoteOptions {
  @Option({ description: 'The note' }) text!: string;
}

@Injectable()
class Notes {
  readonly list: string[] = [];
}

@Command({ name: 'note', description: 'Notes' })
class NoteCommand {
  constructor(private readonly notes: Notes) {}
  @Subcommand({ name: 'add', description: 'Add a note', options: NoteOptions })
  add(ctx: CommandContext<NoteOptions>, { text }: NoteOptions) {
    this.notes.list.push(text);
    return ctx.reply(`Noted (${this.notes.list.length})`);
  }
  @Subcommand({ name: 'list', description: 'List notes' })
  async list(ctx: CommandContext) {
    await ctx.reply(this.notes.list.join(', ') || 'No notes');
    await ctx.followUp('That is all.');
  }
}

@Command({ name: 'badcolour', description: 'Replies with an embed the platform would refuse' })
class BadColour {
  run(ctx: CommandContext) {
    return ctx.reply({ embeds: [{ title: 'Paint', color: 'red' }] });
  }
}

@Command({ name: 'silent', description: 'Does not answer' })
class Silent {
  run() {}
}

describe('commands against the emulator', () => {
  let platform: Platform;
  let started: ReturnType<Platform['bot']>;
  const dice = new Dice();
  const errors: unknown[] = [];

  beforeAll(async () => {
    platform = await TestPlatform.start();
    started = platform.bot({
      handlers: [Roll, Paint, Secret, Daily, Boom, Hang, NoteCommand, Silent, BadColour],
      providers: [{ provide: Dice, useValue: dice }, Notes],
      handlerTimeoutMs: 300,
      onError: (error) => errors.push(error),
    });
    await started.bot.start();
  });

  afterAll(async () => {
    await started?.bot.stop();
    await platform?.close();
  });

  it('registers the derived commands at start', async () => {
    const apps = await platform.control.apps();
    const names = apps[0]?.commands.map((c) => c.name).sort();
    expect(names).toEqual(['badcolour', 'boom', 'daily', 'hang', 'note', 'paint', 'roll', 'secret', 'silent']);
    const roll = apps[0]?.commands.find((c) => c.name === 'roll');
    expect(roll?.options).toEqual([
      { name: 'sides', description: 'Sides on the die', type: 'integer', min_value: 2, max_value: 1000 },
    ]);
  });

  it('answers a person who invokes a command, with injected providers', async () => {
    expect(await platform.ask(platform.alice, platform.general, 'roll', { sides: 20 })).toBe('You rolled 20');
    expect(await platform.ask(platform.alice, platform.general, 'roll')).toBe('You rolled 6');
    expect(dice.rolls).toBe(2);
  });

  it('explains invalid options to the person and does not call the handler', async () => {
    const paint = started.bot;
    const answer = await platform.ask(platform.bob, platform.general, 'paint', { colour: 'blue' });
    expect(answer).toBe('Sorry, /paint cannot run:\n- colour must look like #ff8800');
    expect(await platform.ask(platform.bob, platform.general, 'paint', { colour: '#00ff00' })).toBe('Painted #00ff00');
    expect(paint.state).toBe('running');
    expect(started.logs.lines().some((l) => l.msg === 'invalid options: told the person, handler not called')).toBe(
      true,
    );
  });

  it('a guard denies with its reply, and lets the right person through', async () => {
    expect(await platform.ask(platform.bob, platform.general, 'secret')).toBe('Only alice may see the secret.');
    expect(await platform.ask(platform.alice, platform.general, 'secret')).toBe('The secret is 42');
  });

  it('a cooldown holds the second use per person', async () => {
    expect(await platform.ask(platform.alice, platform.random, 'daily')).toBe('Here is your daily bonus');
    expect(await platform.ask(platform.alice, platform.random, 'daily')).toMatch(
      /^Slow down: \/daily can be used again in \d+ s\.$/,
    );
    expect(await platform.ask(platform.bob, platform.random, 'daily')).toBe('Here is your daily bonus');
  });

  it('a throwing handler tells the person, calls the hooks, and the next event is handled', async () => {
    const answer = await platform.ask(platform.alice, platform.general, 'boom');
    expect(answer).toBe('Sorry, something went wrong while handling that. It has been logged.');
    expect(Boom.hooked).toEqual([expect.objectContaining({ message: 'kaput' })]);
    expect(errors).toContainEqual(expect.objectContaining({ message: 'kaput' }));
    expect(await platform.ask(platform.alice, platform.general, 'roll', { sides: 3 })).toBe('You rolled 3');
    // Its own line: on a loaded machine an earlier handler may have been logged too (a timeout).
    const failure = started.logs.lines().find((l) => l.msg === 'handler failed' && l.handler === 'Boom.run');
    expect(failure).toMatchObject({ handler: 'Boom.run', err: expect.objectContaining({ message: 'kaput' }) });
  });

  it('a hanging handler is reported after its timeout and frees its slot', async () => {
    const answer = await platform.ask(platform.alice, platform.general, 'hang');
    expect(answer).toBe('Sorry, something went wrong while handling that. It has been logged.');
    expect(errors).toContainEqual(expect.objectContaining({ code: 'BOARDBOT_HANDLER_TIMEOUT' }));
    expect(await platform.ask(platform.bob, platform.general, 'roll', { sides: 4 })).toBe('You rolled 4');
  });

  it('refuses a reply the platform would refuse once, in the REST client, before any request', async () => {
    const interaction = await platform.invoke(platform.alice, platform.general, 'badcolour');
    const view = await platform.answers(interaction.id);
    // The only answer is the runtime's apology: the bad embed never reached the platform.
    expect(view.answers.map((m) => m.content)).toEqual([
      'Sorry, something went wrong while handling that. It has been logged.',
    ]);
    expect(errors).toContainEqual(
      expect.objectContaining({
        code: 'BOARDBOT_INVALID_ARGUMENT',
        details: [expect.objectContaining({ path: '/embeds/0/color' })],
      }),
    );
  });

  it('routes subcommands and sends follow-ups', async () => {
    const add = await platform.invoke(platform.alice, platform.general, 'note', { text: 'milk' }, 'add');
    expect((await platform.answers(add.id)).answers[0]?.content).toBe('Noted (1)');
    const list = await platform.invoke(platform.alice, platform.general, 'note', {}, 'list');
    const view = await platform.answers(list.id, 2);
    expect(view.answers.map((m) => m.content)).toEqual(['milk', 'That is all.']);
    expect(view.answers.map((m) => m.kind)).toEqual(['interaction_response', 'interaction_response']);
  });

  it('logs a command that finished without replying', async () => {
    const interaction = await platform.invoke(platform.alice, platform.general, 'silent');
    const silent = () =>
      started.logs.lines().find((l) => l.msg === 'command finished without replying: the person sees no answer');
    await until(() => silent() !== undefined, 'the silent command was logged');
    expect(silent()).toMatchObject({ interaction_id: interaction.id, handler: 'Silent.run' });
  });

  it('restarting with the same commands writes nothing', async () => {
    const again = platform.bot({
      handlers: [Roll, Paint, Secret, Daily, Boom, Hang, NoteCommand, Silent, BadColour],
      providers: [Dice, Notes],
    });
    const plan = await again.bot.start();
    await again.bot.stop();
    expect(plan?.inSync).toBe(true);
    expect(again.logs.lines().some((l) => l.msg === 'registering commands')).toBe(false);
  });
});

describe('errorReply', () => {
  it('tells the person the text it is given, and nothing when it is false', async () => {
    const platform = await TestPlatform.start();
    try {
      const custom = platform.bot({ handlers: [Boom], errorReply: 'That broke, sorry.' });
      await custom.bot.start();
      expect(await platform.ask(platform.alice, platform.general, 'boom')).toBe('That broke, sorry.');
      await custom.bot.stop();

      const silent = platform.bot({ handlers: [Boom], errorReply: false });
      await silent.bot.start();
      const interaction = await platform.invoke(platform.alice, platform.general, 'boom');
      await until(() => silent.logs.lines().some((l) => l.msg === 'handler failed'), 'the failure was logged');
      await silent.bot.idle();
      expect((await platform.control.interaction(interaction.id)).answers).toEqual([]);
      await silent.bot.stop();
    } finally {
      await platform.close();
    }
  });
});

describe('a registered command the bot has no handler for', () => {
  it('is answered as not available, and warns that the registered set may be stale', async () => {
    const platform = await TestPlatform.start();
    try {
      // An older version registered /boom; this one has only /secret and leaves the commands alone.
      const older = platform.bot({ handlers: [Boom] });
      await older.bot.start();
      await older.bot.stop();
      const newer = platform.bot({ handlers: [Secret], commandSync: 'off' });
      await newer.bot.start();
      expect(await platform.ask(platform.alice, platform.general, 'boom')).toBe('/boom is not available right now.');
      const warning = newer.logs
        .lines()
        .find((l) => l.msg === 'no handler for this command: is the registered set stale?');
      expect(warning).toMatchObject({ level: 40 });
      await newer.bot.stop();
    } finally {
      await platform.close();
    }
  });
});
