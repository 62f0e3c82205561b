import { Command, type CommandContext, Option } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { until } from '@boardbot/test-support';
import { IsInt, IsOptional } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

// docs/commands-and-options.md: option values are read as own properties only (an option named
// `constructor` is not Object.prototype's), and `integer` options take decimal digits only. The
// security review: leaving `constructor` out was refused by the emulator ("/options/constructor
// Expected a string"), and as a text command it "is given twice"; `0x10`, `1e2`, `0b101` passed as
// integers.

class BuildOptions {
  @Option({ description: 'Who builds it', name: 'constructor' }) @IsOptional() builder?: string;
  @Option({ description: 'How many' }) @IsOptional() @IsInt() count?: number;
}

@Command({ name: 'build', description: 'Builds', options: BuildOptions, text: true })
class Build {
  run(ctx: CommandContext<BuildOptions>, { builder, count }: BuildOptions) {
    return `${ctx.via}: built by ${builder ?? 'nobody'}, ${count ?? 'no'} times`;
  }
}

describe('option values are own properties, integers decimal', () => {
  let platform: Platform;
  let started: ReturnType<Platform['bot']>;

  beforeAll(async () => {
    platform = await TestPlatform.start();
    started = platform.bot({ handlers: [Build], refusalIntervalMs: 0 });
    await started.bot.start();
  });

  afterAll(async () => {
    await started?.bot.stop();
    await platform?.close();
  });

  /** Posts as alice, then waits for the bot's reply to that message; its text. */
  async function say(content: string): Promise<string | null> {
    const message = await platform.post(platform.alice, platform.general, content);
    let reply: Message | undefined;
    await until(async () => {
      reply = (await platform.messages(platform.general, 50)).find((m) => m.reply_to === message.id);
      return reply !== undefined;
    }, `a reply to "${content}"`);
    return reply?.content ?? null;
  }

  it('leaves an option named constructor out, through the emulator and as a text command', async () => {
    expect(await platform.ask(platform.alice, platform.general, 'build')).toBe('slash: built by nobody, no times');
    expect(await say('!build')).toBe('text: built by nobody, no times');
  });

  it('takes an option named constructor given once, named or positional', async () => {
    expect(await platform.ask(platform.alice, platform.general, 'build', { constructor: 'Ann' })).toBe(
      'slash: built by Ann, no times',
    );
    expect(await say('!build constructor:Ann')).toBe('text: built by Ann, no times');
    expect(await say('!build Bob 2')).toBe('text: built by Bob, 2 times');
  });

  it('refuses 0x10, 1e2 and 0b101 for an integer, as the options error, and takes 16', async () => {
    for (const typed of ['0x10', '1e2', '0b101']) {
      expect(await say(`!build count:${typed}`)).toBe('Sorry, !build cannot run:\n- count: expected an integer');
      await expect(platform.invoke(platform.alice, platform.general, 'build', { count: typed })).rejects.toThrow(
        /options\/count.*Expected an integer/s,
      );
    }
    expect(await say('!build count:16')).toBe('text: built by nobody, 16 times');
    expect(await platform.ask(platform.alice, platform.general, 'build', { count: '16' })).toBe(
      'slash: built by nobody, 16 times',
    );
  });
});
