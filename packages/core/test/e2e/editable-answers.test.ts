import { Command, type CommandContext, type MessageContext, OnMessage, Option } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/listening-to-messages.md "Editable answers" and docs/commands-and-options.md "Editable text
// commands": a person's edit re-runs the handler, whose answers follow, on the real emulator over
// HTTP and SSE.

class RollOptions {
  @Option({ description: 'Sides on the die' }) @IsInt() @Min(2) @Max(1000) sides!: number;
}

@Command({ name: 'roll', description: 'Roll a die', options: RollOptions, text: true })
class Roll {
  run(_ctx: CommandContext<RollOptions>, { sides }: RollOptions) {
    return `rolled a d${sides}`;
  }
}

class LinesOptions {
  @Option({ description: 'How many answers' }) @IsInt() @Min(0) @Max(5) n!: number;
}

@Command({ name: 'lines', description: 'Answers n times', options: LinesOptions, text: true })
class Lines {
  async run(ctx: CommandContext<LinesOptions>, { n }: LinesOptions) {
    for (let i = 1; i <= n; i++) await ctx.reply(`line ${i} of ${n}`);
  }
}

@Command({ name: 'pair', description: 'Two answers side by side', options: LinesOptions, text: true })
class Pair {
  async run(ctx: CommandContext<LinesOptions>, { n }: LinesOptions) {
    await Promise.all([ctx.reply(`left ${n}`), ctx.reply(`right ${n}`)]);
  }
}

class CardOptions {
  @Option({ description: 'Colour' }) @IsIn(['red', 'blue']) colour!: string;
  @Option({ description: 'Caption' }) @IsOptional() caption?: string;
}

@Command({ name: 'card', description: 'A card', options: CardOptions, text: true })
class Card {
  run(_ctx: CommandContext<CardOptions>, { colour, caption }: CardOptions) {
    const color = colour === 'red' ? '#ff0000' : '#0000ff';
    // `none`: the embed alone, without text.
    return { ...(caption !== 'none' && { content: caption ?? 'a card' }), embeds: [{ title: colour, color }] };
  }
}

@Command({ name: 'fixed', description: 'Not editable', text: true, editable: false })
class Fixed {
  run() {
    return 'fixed answer';
  }
}

class Echoes {
  @OnMessage(/^echo /, { editable: true })
  echo(ctx: MessageContext) {
    return `heard (${ctx.event}): ${ctx.message.content?.slice(5)}`;
  }

  @OnMessage(/^keep /, { editable: { deleteWithMessage: false } })
  keep(ctx: MessageContext) {
    return `kept: ${ctx.message.content?.slice(5)}`;
  }

  // Only its reply follows: what it sends is sent again on every run.
  @OnMessage(/^both /, { editable: true })
  async both(ctx: MessageContext) {
    await ctx.send(`sent: ${ctx.message.content?.slice(5)}`);
    return `replied: ${ctx.message.content?.slice(5)}`;
  }

  @OnMessage(/^plain /)
  plain(ctx: MessageContext) {
    return `plain: ${ctx.message.content?.slice(6)}`;
  }
}

describe('editable answers against the emulator', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await createTestPlatform({
      handlers: [Roll, Lines, Pair, Card, Fixed, Echoes],
      // Refusals one after another to the same person are what these tests read (refusals.test.ts throttles).
      textCommands: { editable: true },
      refusalIntervalMs: 0,
    });
  });
  afterAll(() => platform?.close());

  /** The bot's live answers to `message`, oldest first. */
  async function answersTo(message: Message): Promise<Message[]> {
    await platform.settle();
    return (await platform.messages()).filter(
      (m) => m.reply_to === message.id && m.deleted_at === null && platform.bot.isOwn(m),
    );
  }
  const alice = () => platform.person('alice');

  it('!roll 2O then an edit to !roll 20: one answer, edited in place from the refusal to the roll', async () => {
    const message = await alice().say('!roll 2O');
    const [refusal, ...none] = await answersTo(message);
    expect(none).toEqual([]);
    expect(refusal?.content).toBe('Sorry, !roll cannot run:\n- sides: expected an integer');
    await alice().edit(message, '!roll 20');
    const answers = await answersTo(message);
    expect(answers.map((m) => [m.id, m.content])).toEqual([[refusal?.id, 'rolled a d20']]);
    expect(answers[0]?.edited_at).not.toBeNull();
  });

  it('an edit that makes the command invalid: the refusal replaces the answer, in place', async () => {
    const message = await alice().say('!roll 6');
    const [first] = await answersTo(message);
    await alice().edit(message, '!roll 6000');
    const answers = await answersTo(message);
    expect(answers.map((m) => [m.id, m.content])).toEqual([
      [first?.id, 'Sorry, !roll cannot run:\n- sides: expected at most 1000'],
    ]);
  });

  it('an edit may name another command: its answer replaces the first one', async () => {
    const message = await alice().say('!roll 6');
    const [first] = await answersTo(message);
    await alice().edit(message, '!lines 1');
    expect((await answersTo(message)).map((m) => [m.id, m.content])).toEqual([[first?.id, 'line 1 of 1']]);
  });

  it("an edit to !help (the runtime's own command, editable with textCommands: { editable: true }): the help replaces the answer", async () => {
    const message = await alice().say('!roll 6');
    const [first] = await answersTo(message);
    await alice().edit(message, '!help');
    const answers = await answersTo(message);
    expect(answers.map((m) => m.id)).toEqual([first?.id]);
    expect(answers[0]?.content).toMatch(/!roll/);
    expect(answers[0]?.content).not.toBe('rolled a d6');
  });

  it('an edit that changes an embed: the answer is deleted and posted again; a text change alone is edited', async () => {
    const message = await alice().say('!card red');
    const [red] = await answersTo(message);
    expect(red?.embeds).toMatchObject([{ title: 'red' }]);
    await alice().edit(message, '!card blue');
    const [blue, ...none] = await answersTo(message);
    expect(none).toEqual([]);
    expect(blue?.id).not.toBe(red?.id);
    expect(blue?.embeds).toMatchObject([{ title: 'blue' }]);
    const all = await platform.messages();
    expect(all.find((m) => m.id === red?.id)?.deleted_at).not.toBeNull();
    await alice().edit(message, '!card blue "new caption"');
    expect((await answersTo(message)).map((m) => [m.id, m.content])).toEqual([[blue?.id, 'new caption']]);
    // An answer that loses its text cannot be an edit either (an edit carries content only).
    await alice().edit(message, '!card blue none');
    const [bare, ...more] = await answersTo(message);
    expect(more).toEqual([]);
    expect([bare?.id === blue?.id, bare?.content, bare?.embeds]).toMatchObject([false, null, [{ title: 'blue' }]]);
  });

  it('more answers after an edit are posted, fewer delete the extra ones', async () => {
    const message = await alice().say('!lines 1');
    const [one] = await answersTo(message);
    await alice().edit(message, '!lines 3');
    const three = await answersTo(message);
    expect(three.map((m) => m.content)).toEqual(['line 1 of 3', 'line 2 of 3', 'line 3 of 3']);
    expect(three[0]?.id).toBe(one?.id);
    await alice().edit(message, '!lines 2');
    const two = await answersTo(message);
    expect(two.map((m) => [m.id, m.content])).toEqual([
      [three[0]?.id, 'line 1 of 2'],
      [three[1]?.id, 'line 2 of 2'],
    ]);
    await alice().edit(message, '!lines 0');
    expect(await answersTo(message)).toEqual([]);
    // A link to no answer is still a link: the next edit answers again.
    await alice().edit(message, '!lines 1');
    expect((await answersTo(message)).map((m) => m.content)).toEqual(['line 1 of 1']);
  });

  it('a deletion deletes the answers (the default); a listener may keep them', async () => {
    const command = await alice().say('!lines 2');
    const echo = await alice().say('echo hi');
    const keep = await alice().say('keep this');
    expect(await answersTo(command)).toHaveLength(2);
    expect(await answersTo(echo)).toHaveLength(1);
    const [kept] = await answersTo(keep);
    await alice().delete(command);
    await alice().delete(echo);
    await alice().delete(keep);
    expect(await answersTo(command)).toEqual([]);
    expect(await answersTo(echo)).toEqual([]);
    expect((await answersTo(keep)).map((m) => m.id)).toEqual([kept?.id]);
  });

  it('an editable listener runs again on an edit and edits its reply', async () => {
    const message = await alice().say('echo helo');
    const [first] = await answersTo(message);
    expect(first?.content).toBe('heard (message.create): helo');
    await alice().edit(message, 'echo hello');
    expect((await answersTo(message)).map((m) => [m.id, m.content])).toEqual([
      [first?.id, 'heard (message.edit): hello'],
    ]);
    // An edit the listener no longer matches leaves its reply as it is.
    await alice().edit(message, 'never mind');
    expect((await answersTo(message)).map((m) => [m.id, m.content])).toEqual([
      [first?.id, 'heard (message.edit): hello'],
    ]);
  });

  it('only replies follow: what a handler sends is sent on every run', async () => {
    const message = await alice().say('both one');
    const [reply] = await answersTo(message);
    await alice().edit(message, 'both two');
    expect((await answersTo(message)).map((m) => [m.id, m.content])).toEqual([[reply?.id, 'replied: two']]);
    const sent = (await platform.messages()).filter((m) => m.content?.startsWith('sent: '));
    expect(sent.map((m) => [m.content, m.reply_to])).toEqual([
      ['sent: one', null],
      ['sent: two', null],
    ]);
  });

  it('an edit that names no text command leaves the answers as they are', async () => {
    const message = await alice().say('!roll 6');
    const [first] = await answersTo(message);
    await alice().edit(message, 'roll 6, I meant');
    await alice().edit(message, '!nope 6');
    await alice().edit(message, '!fixed');
    expect((await answersTo(message)).map((m) => [m.id, m.content])).toEqual([[first?.id, 'rolled a d6']]);
  });

  it('answers given side by side keep their places: the edit edits each in place', async () => {
    const message = await alice().say('!pair 1');
    const first = await answersTo(message);
    expect(first.map((m) => m.content)).toEqual(['left 1', 'right 1']);
    await alice().edit(message, '!pair 2');
    expect((await answersTo(message)).map((m) => [m.id, m.content])).toEqual([
      [first[0]?.id, 'left 2'],
      [first[1]?.id, 'right 2'],
    ]);
  });

  it('an edit of a message with no link is not answered: not editable, never answered, or not a handler of its', async () => {
    const fixed = await alice().say('!fixed');
    const [answer] = await answersTo(fixed);
    await alice().edit(fixed, '!roll 20');
    expect((await answersTo(fixed)).map((m) => [m.id, m.content])).toEqual([[answer?.id, 'fixed answer']]);
    const chat = await alice().say('just chatting');
    await alice().edit(chat, '!roll 20');
    expect(await answersTo(chat)).toEqual([]);
    const plain = await alice().say('plain one');
    await alice().edit(plain, 'plain two');
    expect((await answersTo(plain)).map((m) => m.content)).toEqual(['plain: one']);
  });
});
