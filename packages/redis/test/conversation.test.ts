import { type Bot, defineConversation, type MessageContext, OnMessage } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { tempDir } from '@boardbot/test-support';
import type { TestPlatform } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';
import { useRedis } from './support/redis.js';
import { eventually, freshPrefix, replicaOf, replicaPlatform } from './support/replicas.js';

const fixture = useRedis();

const Signup = defineConversation({
  name: 'signup',
  questions: ['What is your name?', 'What is your team?'],
  done: (_ctx, [name, team]) => `Welcome ${name} of ${team}!`,
});

class StartSignup {
  @OnMessage('!signup')
  start(ctx: MessageContext) {
    return ctx.session(Signup).start(ctx.message.id);
  }
}

describe('a conversation on replicas', () => {
  it('asked by one replica is answered on another, which finds its state in Redis', async () => {
    const platform: TestPlatform = await replicaPlatform();
    const keyPrefix = freshPrefix();
    // Each replica has a state directory of its own: what they share is Redis, nothing on disk.
    const dirs = [tempDir('boardbot-replica-a-'), tempDir('boardbot-replica-b-')];
    const [first, second] = dirs.map((dir) =>
      replicaOf(platform, fixture().server.url, keyPrefix, {
        handlers: [StartSignup, Signup.listener],
        stateDir: dir.dir,
      }),
    ) as [Bot, Bot];
    const alice = platform.person('alice');
    const botUser = platform.bot.app.bot_user_id;
    /** The bot's reply to `message`, once it is posted. */
    const replyTo = async (message: Message): Promise<string | null> => {
      let found: Message | undefined;
      await eventually(
        async () => {
          found = (await platform.messages('general')).find((m) => m.author === botUser && m.reply_to === message.id);
          return found !== undefined;
        },
        15_000,
        () => `no reply to ${message.content}`,
      );
      return found?.content ?? null;
    };
    try {
      await first.start();
      const start = await alice.say('!signup');
      expect(await replyTo(start)).toBe('What is your name?');
      const name = await alice.say('Alice');
      expect(await replyTo(name)).toBe('What is your team?');

      // The replica that asked leaves; the other one, which never saw the conversation, takes the answer.
      await first.stop();
      await second.start();
      const team = await alice.say('Platform');
      expect(await replyTo(team)).toBe('Welcome Alice of Platform!');
    } finally {
      await first.stop();
      await second.stop();
      await platform.close();
      for (const dir of dirs) dir.remove();
    }
  }, 60_000);
});
