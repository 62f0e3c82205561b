import type { Message } from '@boardbot/protocol';
import { botMessages, until } from '@boardbot/test-support';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, cluster } from './support/cluster.js';
import { buildReplicaBot } from './support/replica-process.js';

// docs/conversations.md, "Branches" and docs/scaling.md: the fixture's conversation with an answer
// class and a branch (test/fixtures/trip-conversation) on two replicas as real processes, sharing a
// real redis-server. The first replica takes a refused answer, the retry and the branch's answer,
// and is killed with SIGKILL before it replies; the second, which never saw the conversation, finds
// its state in Redis: it sends the lost reply and takes the last answer.

beforeAll(() => buildReplicaBot(), 180_000);

let c: Cluster | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

describe('a branched conversation on two replicas, one killed with SIGKILL in the middle', () => {
  it('is resumed by the other replica from Redis: the lost reply, then the last answer, each once', async () => {
    const cl = await cluster({ requests: 1_000_000, extra: { REPLICA_LEASE_MS: '1500', TRIP: '1' } });
    c = cl;
    const botUser = cl.platform.bot.app.bot_user_id;
    const replies = async () => botMessages(await cl.platform.messages('general'), botUser);
    /** The bot's replies to `message`, once it has one. */
    const repliesTo = async (message: Message): Promise<(string | null)[]> => {
      await until(
        async () => (await replies()).some((m) => m.reply_to === message.id),
        `a reply to ${message.content}`,
        {
          timeoutMs: 60_000,
          intervalMs: 100,
          report: () => cl.report(),
        },
      );
      return (await replies()).filter((m) => m.reply_to === message.id).map((m) => m.content);
    };
    const alice = cl.platform.person('alice');
    const reply = async (text: string) => (await repliesTo(await alice.say(text)))[0];

    const first = cl.start({ HOLD_ANSWER: 'Ritz' });
    await first.started();
    expect(await reply('!trip')).toBe('How many nights?');
    expect(await reply('15')).toBe('nights must not be greater than 14\nHow many nights?');
    expect(await reply('9')).toBe('A long stay: which hotel?');
    const held = await alice.say('Ritz');
    await first.waitFor((l) => l.msg === 'fixture trip answered' && l.to === held.id);

    const second = cl.start();
    await second.started();
    await first.signal('SIGKILL');
    expect(await repliesTo(held)).toEqual(['Which city?']);
    expect(await reply('Paris')).toBe('trip done: 9 nights in Paris at Ritz');
    // The second replica took over: it logged the answers it handled, the first one is gone.
    expect(second.lines.some((l) => l.msg === 'fixture trip answered' && l.to === held.id)).toBe(true);

    await second.stop();
    expect((await replies()).map((m) => m.content)).toEqual([
      'How many nights?',
      'nights must not be greater than 14\nHow many nights?',
      'A long stay: which hotel?',
      'Which city?',
      'trip done: 9 nights in Paris at Ritz',
    ]);
  }, 120_000);
});
