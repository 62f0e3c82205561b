import { ControlApiError, createTestPlatform, TestingError, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS } from './support/bot.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await createTestPlatform({ handlers: HANDLERS });
});
afterAll(() => platform?.close());

describe('people invoke commands', () => {
  it('answers an invocation with the bot’s first answer', async () => {
    const answer = await platform.person('alice').invoke('roll', { sides: 20 });
    expect(answer.content).toBe('You rolled 20');
    expect(answer.kind).toBe('interaction_response');
    expect(answer.interaction?.name).toBe('roll');
  });

  it('invokes subcommands written as a person types them, on the board asked for', async () => {
    const answer = await platform
      .person('bob')
      .invoke('/note add', { text: 'milk', volume: 'high' }, { board: 'random' });
    expect(answer.content).toBe('Noted (high): milk');
    expect(answer.board_id).toBe((await platform.board('random')).id);
    expect((await platform.person('bob').invoke('note clear')).content).toBe('Cleared');
  });

  it('rejects what the platform refuses, with each problem', async () => {
    const error = await platform
      .person('alice')
      .invoke('roll', { sides: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestingError);
    expect(error).toMatchObject({ code: 'BOARDBOT_TEST_INVOCATION_REJECTED', apiCode: 'validation_failed' });
    expect((error as TestingError).message).toContain('/options/sides: Expected at least 2');
  });

  it('rejects an unknown choice and an unknown command the same way', async () => {
    const alice = platform.person('alice');
    await expect(alice.invoke('note add', { text: 'x', volume: 'deafening' })).rejects.toMatchObject({
      code: 'BOARDBOT_TEST_INVOCATION_REJECTED',
    });
    await expect(alice.invoke('dance')).rejects.toThrow(/registers the command "dance"/);
  });

  it("reports any other refusal as the control client's ControlApiError, with the platform's code", async () => {
    const general = await platform.board('general');
    const gone = { id: '00000000-0000-4000-8000-000000000000', board_id: general.id };
    const error = await platform
      .person('alice')
      .edit(gone, 'never written')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlApiError);
    expect(error).toMatchObject({ code: 'BOARDBOT_CONTROL_API_ERROR', status: 404, apiCode: 'unknown_message' });
    expect((error as Error).message).not.toContain(platform.adminKey);
  });

  it('returns the first answer, and the follow-ups to a wait on the interaction', async () => {
    const answer = await platform.person('alice').invoke('twice');
    expect(answer.content).toBe('first');
    const followUp = await platform.bot.nextMessage({ interaction: answer.interaction?.id ?? '' });
    expect(followUp.content).toBe('second');
  });

  it('starts an invocation without waiting, for answers awaited later', async () => {
    const interaction = await platform.person('bob').start('roll', { sides: 9 });
    expect(interaction.command).toEqual({ name: 'roll', subcommand: null, options: { sides: 9 } });
    expect((await platform.bot.nextMessage({ interaction })).content).toBe('You rolled 9');
  });

  it('refuses a command string that is not one', async () => {
    await expect(platform.person('alice').invoke('note add more')).rejects.toMatchObject({
      code: 'BOARDBOT_TEST_OPTIONS',
    });
  });
});

describe('people talk', () => {
  it('awaits the bot’s reply to a message', async () => {
    const alice = platform.person('alice');
    const hello = await alice.say('hello bot');
    const reply = await platform.bot.nextMessage({ replyTo: hello });
    expect(reply.content).toBe('Hello, Alice!');
    expect(reply.kind).toBe('reply');
    expect(platform.bot.isOwn(reply)).toBe(true);
  });

  it('replies to the bot, threaded on the bot’s board', async () => {
    const bob = platform.person('bob');
    const greeting = await platform.bot.nextMessage({ replyTo: await bob.say('hello there') });
    const answer = await bob.reply(greeting, 'hello again');
    expect(answer.reply_to).toBe(greeting.id);
    expect(answer.board_id).toBe(greeting.board_id);
    expect((await platform.bot.nextMessage({ replyTo: answer })).content).toBe('Hello, Bob!');
  });

  it('edits and deletes their messages, which the bot hears', async () => {
    const alice = platform.person('alice');
    const said = await alice.say('hello you', { board: 'random' });
    await platform.bot.nextMessage({ replyTo: said });
    const edited = await alice.edit(said, 'hello everyone');
    expect(edited.content).toBe('hello everyone');
    expect(edited.edited_at).not.toBeNull();
    const seen = await platform.bot.nextMessage({ content: 'You changed it to: hello everyone', board: 'random' });
    expect(seen.reply_to).toBeNull();
    await alice.delete(said);
    await platform.bot.nextMessage({ content: `A message was deleted: ${said.id}` });
    const history = await platform.messages('random');
    expect(history.find((m) => m.id === said.id)?.deleted_at).not.toBeNull();
  });

  it('creates a person on first use, who joins each board they talk on', async () => {
    const carol = platform.person('carol', { displayName: 'Carol C.', role: 'admin' });
    expect(platform.person('carol')).toBe(carol);
    const said = await carol.say('hello from carol', { board: 'random' });
    expect((await platform.bot.nextMessage({ replyTo: said })).content).toBe('Hello, Carol C.!');
    const random = await platform.board('random');
    const members = await platform.control.members(random.id);
    expect(members.find((m) => m.user.username === 'carol')?.role).toBe('admin');
    // Seeded people keep their seeded role when none is asked for.
    await platform.person('alice').say('hi', { board: 'random' });
    expect((await platform.control.members(random.id)).find((m) => m.user.username === 'alice')?.role).toBe('owner');
  });

  it('refuses an invalid username at once', () => {
    expect(() => platform.person('Not Valid')).toThrow(/not a valid username/);
  });

  it('explains a board that does not exist', async () => {
    await expect(platform.person('alice').say('hi', { board: 'nowhere' })).rejects.toThrow(
      /No board named "nowhere".*platform\.createBoard\('nowhere'\)/,
    );
  });
});

describe('waiting for the bot', () => {
  it('follows the bot’s own posts, edits and deletions in order', async () => {
    const answer = await platform.person('alice').invoke('countdown');
    expect(answer.content).toBe('Lift-off');
    const posted = await platform.bot.nextMessage({ content: '3' });
    expect((await platform.bot.nextEdit({ id: posted.id })).content).toBe('2');
    expect((await platform.bot.nextEdit({ id: posted.id })).content).toBe('1');
    const tombstone = await platform.bot.nextDelete({ id: posted.id });
    expect(tombstone.deleted_at).not.toBeNull();
    expect(platform.bot.messages({ id: posted.id })[0]?.deleted_at).not.toBeNull();
  });

  it('settles: everything that happened is handled, so silence can be asserted', async () => {
    const alice = platform.person('alice');
    const before = platform.bot.messages().length;
    await alice.say('nothing for the bot here');
    const slow = await alice.say('slow please');
    await platform.settle();
    // The slow reply is there without waiting for it: settle() waited for the whole handler.
    const after = platform.bot.messages();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ content: 'done slowly', reply_to: slow.id });
  });

  it('fails a wait with what the bot did and logged instead', async () => {
    const error = await platform
      .person('alice')
      .invoke('quiet', {}, { timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BOARDBOT_TEST_TIMEOUT', timeoutMs: 300 });
    expect((error as Error).message).toMatch(/^expected the bot to answer \/quiet \(alice on general\) within 300 ms;/);
  });

  it('reports whether the bot received the invocation, and its warnings', async () => {
    const interaction = await platform.person('alice').start('quiet');
    // Once settled, the bot has received and handled the invocation: the report is exact.
    await platform.settle();
    const error = await platform.bot.nextMessage({ interaction }, { timeoutMs: 50 }).catch((e: unknown) => e);
    const message = (error as Error).message;
    expect(message).toContain(
      `expected the bot to post a message (answering interaction ${interaction.id.slice(0, 8)}…)`,
    );
    expect(message).toContain('The bot received the invocation but has not answered it.');
    expect(message).toMatch(/WARN command finished without replying: the person sees no answer \(.*command=quiet/);
  });

  it('lists the messages the bot posted instead of the awaited one', async () => {
    const interaction = await platform.person('bob').start('elsewhere');
    await platform.settle();
    const error = await platform.bot.nextMessage({ interaction }, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /instead it:\n[\s\S]* {2}- posted "I answer in the wrong place" on general\n/,
    );
  });
});

describe('the captured log', () => {
  it('holds the bot’s lines for assertions', async () => {
    expect(platform.logs.find({ msg: 'bot started' })).toHaveLength(1);
    await platform.person('alice').invoke('roll');
    expect(platform.logs.find({ level: 'debug' }).length).toBeGreaterThan(0);
  });

  it('never holds a token', async () => {
    await platform.person('alice').invoke('secretive');
    const [line] = platform.logs.find({ msg: 'logged the whole interaction' });
    expect((line?.interaction as { token?: string }).token).toBe('[redacted]');
    expect(JSON.stringify(platform.logs.lines)).not.toContain(platform.token);
  });
});
