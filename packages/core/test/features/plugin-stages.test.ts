import { Command, type CommandContext, definePlugin, OnMessage, Option, RunKey } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { IsString } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/plugins.md, "A stage": a plugin's stages run in their phase, in every run they apply to,
// keep their state on the run under their own key, and its endings say how a run that threw ended.

/** Thrown by a handler when the person called it off: not a failure. */
class CalledOff extends Error {}

const STARTED = new RunKey<number>('audit started');
const audited: string[] = [];

const audit = definePlugin((options: { quiet: string }) => ({
  name: 'boardbot-plugin-audit',
  stages: [
    { name: 'audit start', phase: 'open', run: ({ run }) => run.set(STARTED, Date.now()) },
    {
      // Commands only: a command's run that names the quiet word stops here, with a word to the person.
      name: 'quiet word',
      phase: 'admit',
      applies: (target) => target.label.startsWith('Say.'),
      async run({ ctx }) {
        if (ctx.kind !== 'command' || !String(ctx.options.text).includes(options.quiet)) return;
        await ctx.reply('Not that word.');
        return false;
      },
    },
    {
      name: 'audit end',
      phase: 'finish',
      run: ({ run, target }) => {
        audited.push(`${target.label} started ${typeof run.get(STARTED)}`);
      },
    },
  ],
  endings: [
    (error) =>
      error instanceof CalledOff
        ? { outcome: 'cancelled' as const, log: ({ ctx }) => ctx.log.info('called off by the person') }
        : undefined,
  ],
}));

class SayOptions {
  @Option({ description: 'What to say' }) @IsString() text!: string;
}

@Command({ name: 'say', description: 'Says it', options: SayOptions, text: true })
class Say {
  run(_ctx: CommandContext, { text }: SayOptions) {
    if (text === 'never mind') throw new CalledOff();
    return `said: ${text}`;
  }
}

class Hello {
  @OnMessage('hello')
  hello() {
    return 'hi';
  }
}

describe("a plugin's stages and endings (docs/plugins.md)", () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await createTestPlatform({ handlers: [Say, Hello], plugins: [audit({ quiet: 'secret' })] });
  });
  afterAll(() => platform?.close());

  it('run in their phases for the handlers they apply to, with their state on the run', async () => {
    const alice = platform.person('alice');
    audited.length = 0;
    expect((await alice.invoke('say', { text: 'hi there' })).content).toBe('said: hi there');
    const hello = await alice.say('hello');
    expect((await platform.bot.nextMessage({ replyTo: hello })).content).toBe('hi');
    await platform.settle();
    expect(audited.sort()).toEqual(['Hello.hello started number', 'Say.run started number']);
  });

  it('stop a run where a stage returns false, after it told the person', async () => {
    const alice = platform.person('alice');
    audited.length = 0;
    expect((await alice.invoke('say', { text: 'my secret' })).content).toBe('Not that word.');
    // The message listener's runs are not the quiet word stage's.
    const hello = await alice.say('hello secret');
    expect((await platform.bot.nextMessage({ replyTo: hello })).content).toBe('hi');
  });

  it("end a run as the plugin's ending says: called off, no apology", async () => {
    const alice = platform.person('alice');
    const interaction = await alice.start('say', { text: 'never mind' });
    await platform.settle();
    expect(platform.bot.messages({ interaction: interaction.id })).toEqual([]);
    const handled = platform.logs.find({ msg: /^handled$/ }).filter((l) => l.handler === 'Say.run');
    expect(handled.at(-1)?.outcome).toBe('cancelled');
    expect(platform.logs.find({ msg: 'called off by the person' })).toHaveLength(1);
  });
});
