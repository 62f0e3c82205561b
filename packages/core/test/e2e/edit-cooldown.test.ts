import { Command, type CommandContext, Cooldown, type MessageContext, OnMessage, Option } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { IsInt, IsOptional, Min } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/guards-middleware-cooldowns.md, "What an edit costs": an editable handler's re-run on its
// message's edit takes a use of its cooldown like a new message, and a message refused before the
// cooldown took none. An edit handled again after a crash: features/cooldowns.test.ts.

/** Runs of `!daily`. */
const daily = { runs: 0 };

@Command({ name: 'daily', description: 'Once a minute', text: true })
@Cooldown({ ms: 60_000, per: 'user' })
class Daily {
  run() {
    daily.runs++;
    return `daily bonus, run ${daily.runs}`;
  }
}

class EchoOptions {
  @Option({ description: 'What to say back' }) @IsOptional() words?: string;
}

@Command({ name: 'echo', description: 'Says it back', options: EchoOptions, text: true })
class EchoCommand {
  run(_ctx: CommandContext<EchoOptions>, { words }: EchoOptions) {
    return `echo: ${words ?? ''}`;
  }
}

class ClaimOptions {
  @Option({ description: 'How much' }) @IsInt() @Min(1) amount!: number;
}

@Command({ name: 'claim', description: 'Once a minute, with an amount', options: ClaimOptions, text: true })
@Cooldown({ ms: 60_000, per: 'user' })
class Claim {
  run(_ctx: CommandContext<ClaimOptions>, { amount }: ClaimOptions) {
    return `claimed ${amount}`;
  }
}

class Bonus {
  @OnMessage(/^bonus/, { editable: true })
  @Cooldown({ ms: 60_000, per: 'user' })
  bonus(ctx: MessageContext) {
    return `bonus: ${ctx.message.content}`;
  }
}

describe('what an edit costs', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await createTestPlatform({
      handlers: [Daily, EchoCommand, Claim, Bonus],
      // Each refused run's words are what these tests read, one after another to the same person.
      textCommands: { editable: true },
      refusalIntervalMs: 0,
    });
  });
  afterAll(() => platform?.close());

  /** The content of the bot's live answers to `message`, oldest first. */
  async function answersTo(message: Message): Promise<string[]> {
    await platform.settle();
    const all = await platform.messages();
    return all
      .filter((m) => m.reply_to === message.id && m.deleted_at === null && platform.bot.isOwn(m))
      .map((m) => m.content ?? '');
  }

  // Issue 40, finding 3: edits walked around the cooldown (a refused !daily edited ran, the first one
  // edited three times ran three more times, !echo hi edited to !daily ran): six runs in a minute.
  it('an edit pays the cooldown: the six-run sequence of edits ends with one run', async () => {
    const person = platform.person('carol');
    const runs = daily.runs;
    const first = await person.say('!daily');
    expect(await answersTo(first)).toEqual([`daily bonus, run ${runs + 1}`]);
    const second = await person.say('!daily');
    expect((await answersTo(second))[0]).toMatch(/^Slow down: !daily/);
    await person.edit(second, '!daily ');
    for (const content of ['!daily  ', '!daily   ', '!daily    ']) await person.edit(first, content);
    const echo = await person.say('!echo hi');
    expect(await answersTo(echo)).toEqual(['echo: hi']);
    await person.edit(echo, '!daily');
    expect(daily.runs).toBe(runs + 1);
    // Each refused run says so in place of the message's answer.
    for (const m of [first, second, echo]) expect((await answersTo(m))[0]).toMatch(/^Slow down: !daily/);
  });

  it("an editable listener's re-run pays its cooldown too: the edit is not run while it holds", async () => {
    const person = platform.person('erin');
    const message = await person.say('bonus one');
    expect(await answersTo(message)).toEqual(['bonus: bonus one']);
    await person.edit(message, 'bonus two');
    // A held listener is skipped silently: its answer stays what the first run said.
    expect(await answersTo(message)).toEqual(['bonus: bonus one']);
  });

  it('a typo refused at its options took no use: the edit that fixes it runs, on the use a new message would take', async () => {
    const person = platform.person('dave');
    const typo = await person.say('!claim 2O');
    expect(await answersTo(typo)).toEqual(['Sorry, !claim cannot run:\n- amount: expected an integer']);
    await person.edit(typo, '!claim 20');
    expect(await answersTo(typo)).toEqual(['claimed 20']);
    // The fix took the minute's one use: a message refused at its options, then edited, is not a
    // way around the cooldown (each new one would run free otherwise).
    const again = await person.say('!claim 2O');
    await person.edit(again, '!claim 5');
    expect((await answersTo(again))[0]).toMatch(/^Slow down: !claim/);
  });
});
