import {
  defineConversation,
  FileSessionStore,
  MemoryPositionStore,
  type MessageContext,
  OnMessage,
} from '@boardbot/core';
import { createTestPlatform } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';
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
      sessions: new FileSessionStore(dir.path),
      position,
      clock,
    });
    const next = anotherInstance(platform, {
      handlers: HANDLERS,
      sessions: new FileSessionStore(dir.path),
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

  it('answers a late answer with the timeout note, and stops on cancel', async () => {
    const platform = await createTestPlatform({ handlers: HANDLERS, clock });
    try {
      const bob = platform.person('bob');
      await bob.say('!signup');
      expect((await platform.bot.nextMessage()).content).toBe('What is your name?');
      now += 61_000;
      const late = await bob.say('Bob');
      expect((await platform.bot.nextMessage({ replyTo: late })).content).toMatch(/signup timed out/);

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
