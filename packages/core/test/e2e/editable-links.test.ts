import { Command, type CommandContext, type MessageContext, OnMessage, Option } from '@boardbot/core';
import { DEFAULT_ANSWER_RECORD_OPTIONS } from '@boardbot/core/internal';
import { until } from '@boardbot/test-support';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { IsInt, Min } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/listening-to-messages.md "Editable answers" and docs/commands-and-options.md "Editable text
// commands": the link between a message and its answers (its expiry, the order of its message's
// events, the answers kept on a deletion), on the real emulator over HTTP and SSE.

class RollOptions {
  @Option({ description: 'Sides on the die' }) @IsInt() @Min(2) sides!: number;
}

@Command({ name: 'roll', description: 'Roll a die', options: RollOptions, text: true })
class Roll {
  run(_ctx: CommandContext<RollOptions>, { sides }: RollOptions) {
    return `rolled a d${sides}`;
  }
}

describe('the link between a message and its answers', () => {
  let platform: TestPlatform;
  let clock: TestClock;

  beforeAll(async () => {
    clock = new TestClock('2026-03-02T09:00:00Z');
    platform = await createTestPlatform({
      handlers: [Roll],
      textCommands: { editable: true },
      clock,
      emulator: { now: () => clock.now() },
    });
  });
  afterAll(() => platform?.close());

  it('expires 24 hours after its last write: a later edit is not answered', async () => {
    const alice = platform.person('alice');
    const message = await alice.say('!roll 6');
    await platform.settle();
    clock.advance(DEFAULT_ANSWER_RECORD_OPTIONS.ttlMs - 1);
    await alice.edit(message, '!roll 8');
    await platform.settle();
    clock.advance(DEFAULT_ANSWER_RECORD_OPTIONS.ttlMs);
    await alice.edit(message, '!roll 12');
    await platform.settle();
    const answers = (await platform.messages()).filter((m) => m.reply_to === message.id);
    expect(answers.map((m) => m.content)).toEqual(['rolled a d8']);
  });
});

describe("editable answers with orderBy: 'none'", () => {
  let platform: TestPlatform;
  let release: () => void = () => {};
  const held: string[] = [];

  class Slow {
    // The first run of a message waits for the test: its edit arrives meanwhile.
    @OnMessage(/^slow /, { editable: true })
    async slow(ctx: MessageContext) {
      if (ctx.event === 'message.create') {
        held.push(ctx.message.id);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
      return `slow: ${ctx.message.content?.slice(5)}`;
    }
  }

  beforeAll(async () => {
    platform = await createTestPlatform({ handlers: [Slow], orderBy: 'none' });
  });
  afterAll(() => platform?.close());

  it('runs the edit of a message after its first run, whatever orderBy says', async () => {
    const alice = platform.person('alice');
    const message = await alice.say('slow frist');
    await until(() => held.includes(message.id), 'the first run to start');
    await alice.edit(message, 'slow first');
    // The edit is received while the first run holds, and waits behind it: run before the first
    // run answered, it would find no link and not be answered.
    await until(() => platform.bot.runtime.pending === 2, 'the edit received, waiting');
    release();
    await platform.settle();
    const answers = (await platform.messages()).filter((m) => m.reply_to === message.id && m.deleted_at === null);
    expect(answers.map((m) => m.content)).toEqual(['slow: first']);
  });
});

describe("text commands' answers kept when their message is deleted", () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await createTestPlatform({
      handlers: [Roll],
      textCommands: { editable: { deleteWithMessage: false } },
    });
  });
  afterAll(() => platform?.close());

  it('follow edits, and stay when the message is deleted', async () => {
    const alice = platform.person('alice');
    const message = await alice.say('!roll 6');
    await alice.edit(message, '!roll 8');
    await platform.settle();
    await alice.delete(message);
    await platform.settle();
    const answers = (await platform.messages()).filter((m) => m.reply_to === message.id && m.deleted_at === null);
    expect(answers.map((m) => m.content)).toEqual(['rolled a d8']);
  });
});
