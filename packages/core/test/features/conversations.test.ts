import {
  Command,
  type CommandContext,
  defineConversation,
  FileSessionStore,
  MemoryPositionStore,
  type MessageContext,
  OnMessage,
  Subcommand,
} from '@boardbot/core';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anotherInstance, stateDir } from './support.js';

let now = Date.parse('2026-03-02T09:00:00Z');
const clock = { now: () => now, setTimeout, clearTimeout } as never;

const Signup = defineConversation({
  name: 'signup',
  questions: ['What is your name?', 'What is your team?'],
  done: (ctx, [name, team]) => `Welcome ${name} of ${team}, ${ctx.authorName}!`,
  timeoutMs: 60_000,
});

class StartSignup {
  @OnMessage('!signup')
  start(ctx: MessageContext) {
    return ctx.session(Signup).start(ctx.message.id);
  }
}

const HANDLERS = [StartSignup, Signup.listener];

describe('conversations against the emulator', () => {
  it('asks two questions and takes each next message as the answer, even across a restart of the bot', async () => {
    const dir = await stateDir();
    const position = new MemoryPositionStore();
    const platform = await createTestPlatform({
      handlers: HANDLERS,
      sessions: new FileSessionStore(dir.path, { clock }),
      position,
      clock,
    });
    const next = anotherInstance(platform, {
      handlers: HANDLERS,
      sessions: new FileSessionStore(dir.path, { clock }),
      position,
      clock,
    });
    try {
      const alice = platform.person('alice');
      const start = await alice.say('!signup');
      expect((await platform.bot.nextMessage({ replyTo: start })).content).toBe('What is your name?');
      const name = await alice.say('Alice');
      expect((await platform.bot.nextMessage({ replyTo: name })).content).toBe('What is your team?');

      // The bot restarts between two answers: the conversation is in the store, not in a promise.
      await platform.bot.runtime.stop();
      await next.start();
      const team = await alice.say('Platform');
      expect((await platform.bot.nextMessage({ replyTo: team })).content).toBe('Welcome Alice of Platform, Alice!');

      // It is over: the next message is no answer.
      const after = await alice.say('hello');
      await next.idle();
      await alice.say('!signup');
      expect((await platform.bot.nextMessage()).content).toBe('What is your name?');
      expect(platform.bot.messages({ replyTo: after })).toHaveLength(0);
    } finally {
      await next.stop();
      await platform.close();
      await dir.remove();
    }
  });

  it('takes an answer once though two instances sharing the store both handle it', async () => {
    const dir = await stateDir();
    const platform = await createTestPlatform({
      handlers: HANDLERS,
      sessions: new FileSessionStore(dir.path, { clock }),
      clock,
    });
    const replica = anotherInstance(platform, {
      handlers: HANDLERS,
      sessions: new FileSessionStore(dir.path, { clock }),
      clock,
    });
    try {
      await replica.start();
      const alice = platform.person('alice');
      const start = await alice.say('!signup');
      expect((await platform.bot.nextMessage({ replyTo: start })).content).toBe('What is your name?');
      const name = await alice.say('Alice');
      await platform.settle();
      await replica.idle();
      // Taken twice, the name would also have answered the second question.
      const store = new FileSessionStore(dir.path, { clock });
      const { id } = await alice.profile();
      const general = (await platform.board('general')).id;
      const state = await store.read(`${platform.bot.app.id}:conversation:signup:user:${id}:board:${general}`);
      expect(state?.value?.data).toMatchObject({ step: 1, answers: ['Alice'] });
      expect(platform.bot.messages({ replyTo: name }).map((m) => m.content)).toEqual(['What is your team?']);
      const team = await alice.say('Platform');
      expect((await platform.bot.nextMessage({ replyTo: team })).content).toBe('Welcome Alice of Platform, Alice!');
    } finally {
      await replica.stop();
      await platform.close();
      await dir.remove();
    }
  });

  it('answers a late answer with the timeout note, and stops on cancel', async () => {
    const platform = await createTestPlatform({ handlers: HANDLERS, clock });
    try {
      const bob = platform.person('bob');
      await bob.say('!signup');
      expect((await platform.bot.nextMessage()).content).toBe('What is your name?');
      now += 61_000;
      const late = await bob.say('Bob');
      expect((await platform.bot.nextMessage({ replyTo: late })).content).toBe(
        'That signup timed out before you answered; start it again when you are ready.',
      );

      await bob.say('!signup');
      expect((await platform.bot.nextMessage()).content).toBe('What is your name?');
      const cancel = await bob.say('cancel');
      expect((await platform.bot.nextMessage({ replyTo: cancel })).content).toBe('Cancelled.');
      const stray = await bob.say('Bob');
      await platform.settle();
      expect(platform.bot.messages({ replyTo: stray })).toHaveLength(0);
    } finally {
      await platform.close();
    }
  });
});

const Quiz = defineConversation({
  name: 'quiz',
  questions: ['First?', 'Second?'],
  done: (_ctx, answers) => `You said ${answers.join(' and ')}.`,
  timeoutReply: 'Too slow.',
  cancelWords: ['stop', 'never mind'],
  cancelReply: 'Stopped.',
});

class QuizMessages {
  @OnMessage('!quiz')
  start(ctx: MessageContext) {
    return ctx.session(Quiz).start(ctx.message.id);
  }
}

@Command({ name: 'quiz', description: 'The quiz, from a command' })
class QuizCommand {
  @Subcommand({ name: 'status', description: 'Whether a quiz is under way' })
  async status(ctx: CommandContext) {
    return (await ctx.session(Quiz).active()) ? 'under way' : 'none';
  }
  @Subcommand({ name: 'drop', description: 'Ends it' })
  async drop(ctx: CommandContext) {
    await ctx.session(Quiz).cancel();
    return 'dropped';
  }
  @Subcommand({ name: 'restart', description: 'Starts over' })
  restart(ctx: CommandContext) {
    return ctx.session(Quiz).start();
  }
}

describe('a conversation with its own words and the default timeout', () => {
  let platform: TestPlatform;
  let quizClock: TestClock;
  beforeAll(async () => {
    quizClock = new TestClock('2026-03-02T09:00:00Z');
    platform = await createTestPlatform({ handlers: [QuizMessages, QuizCommand, Quiz.listener], clock: quizClock });
  });
  afterAll(() => platform?.close());

  /** Says `text` as `who` and returns the bot's reply to it, or null once the bot settled without one. */
  async function answerTo(who: string, text: string): Promise<string | null> {
    const said = await platform.person(who).say(text);
    await platform.settle();
    return platform.bot.messages({ replyTo: said })[0]?.content ?? null;
  }

  it('says whether one is under way, is ended by cancel() from any handler, and starts over with start()', async () => {
    expect((await platform.person('bob').invoke('quiz status')).content).toBe('none');
    expect(await answerTo('bob', '!quiz')).toBe('First?');
    expect((await platform.person('bob').invoke('quiz status')).content).toBe('under way');
    expect(await answerTo('bob', 'red')).toBe('Second?');
    expect((await platform.person('bob').invoke('quiz restart')).content).toBe('First?');
    expect(await answerTo('bob', 'green')).toBe('Second?');
    expect(await answerTo('bob', 'blue')).toBe('You said green and blue.');

    expect(await answerTo('bob', '!quiz')).toBe('First?');
    expect((await platform.person('bob').invoke('quiz drop')).content).toBe('dropped');
    expect((await platform.person('bob').invoke('quiz status')).content).toBe('none');
    expect(await answerTo('bob', 'red')).toBeNull();
  });

  it('ends on any of its cancelWords, whatever their case, with its cancelReply', async () => {
    expect(await answerTo('carol', '!quiz')).toBe('First?');
    expect(await answerTo('carol', 'Never Mind')).toBe('Stopped.');
    expect(await answerTo('carol', '!quiz')).toBe('First?');
    // The default word is replaced, not added to.
    expect(await answerTo('carol', 'cancel')).toBe('Second?');
    expect(await answerTo('carol', 'stop')).toBe('Stopped.');
  });

  it('waits 10 minutes for an answer by default, then answers with its timeoutReply when the person writes', async () => {
    expect(await answerTo('dave', '!quiz')).toBe('First?');
    quizClock.advance(10 * 60_000);
    expect(await answerTo('dave', 'just in time')).toBe('Second?');
    quizClock.advance(10 * 60_000 + 1);
    expect(await answerTo('dave', 'too late')).toBe('Too slow.');
    expect(await answerTo('dave', 'after it')).toBeNull();
  });

  it('forgets a conversation altogether timeoutMs × (questions + 1) after its last question: a later message is no answer', async () => {
    expect(await answerTo('erin', '!quiz')).toBe('First?');
    quizClock.advance(3 * 10 * 60_000 + 1);
    expect(await answerTo('erin', 'much too late')).toBeNull();
  });
});
