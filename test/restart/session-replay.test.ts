import { botMessages, type RedisServer, startRedisServer } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refused } from './support/bot-process.js';
import { repliesTo, waitForReplies } from './support/replies.js';
import { type Scenario, useScenario } from './support/scenario.js';

// docs/sessions.md, "What runs on a replay": a handler that answers from what its session update()
// resolved with gives the same answer when its event is handled again after a kill -9, though
// another update changed the session in between. The bot is a real process, killed with SIGKILL; the
// emulator is real, over loopback; the Redis store runs against a real redis-server.

const openScenario = useScenario();

/**
 * Alice's `count` on general is held (by the fixture, `hold`: after its update, or after its reply)
 * and the process killed with SIGKILL; her `count` on random, handled in between, raised the same
 * session. The next process handles the held one again.
 */
async function killedBetweenTwoUpdates(s: Scenario, hold: 'hold-update' | 'hold-reply', env: Record<string, string>) {
  const first = s.startBot({ HOLD_AFTER_WRITE: '1', ...env });
  await first.started();
  const alice = s.platform.person('alice');
  const held = await alice.say(`count ${hold}`);
  const updated = await first.waitFor((l) => l.msg === 'fixture updated' && l.to === held.id);
  if (hold === 'hold-reply') await first.waitFor((l) => l.msg === 'fixture wrote' && l.to === held.id);
  const between = await alice.say('count between', { board: 'random' });
  await waitForReplies(s, [between], 'random');
  await first.kill();

  const second = s.startBot(env);
  await second.started();
  await waitForReplies(s, [held]);
  expect(await second.stop()).toBe(0);
  const botUser = s.platform.bot.app.bot_user_id;
  return {
    first: updated.count,
    replies: (await repliesTo(s, [held])).map((r) => r.content),
    between: (await repliesTo(s, [between], 'random')).map((r) => r.content),
    general: botMessages(await s.platform.messages('general'), botUser),
    refusals: refused([...first.lines, ...second.lines]),
  };
}

describe('a session update replayed after a kill -9, with the file store', () => {
  it('killed after the update and before the reply: the reply is the one the update made, once, no 422', async () => {
    const s = await openScenario();
    const seen = await killedBetweenTwoUpdates(s, 'hold-update', {});
    expect(seen.first).toBe(1);
    expect(seen.between).toEqual(['count 2']);
    expect(seen.replies).toEqual(['count 1']);
    expect(seen.general).toHaveLength(1);
    expect(seen.refusals).toEqual([]);
  }, 120_000);

  it('killed after the reply: the replayed reply is identical, so the platform replays it instead of a 422', async () => {
    const s = await openScenario();
    const seen = await killedBetweenTwoUpdates(s, 'hold-reply', {});
    expect(seen.between).toEqual(['count 2']);
    expect(seen.replies).toEqual(['count 1']);
    expect(seen.general).toHaveLength(1);
    expect(seen.refusals).toEqual([]);
  }, 120_000);
});

describe('a session update replayed after a kill -9, with the Redis store', () => {
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
  }, 30_000);
  afterAll(() => redis?.close());

  it('killed after the update and before the reply: the reply is the one the update made, once, no 422', async () => {
    const s = await openScenario();
    const seen = await killedBetweenTwoUpdates(s, 'hold-update', { SESSION_REDIS_URL: redis?.url ?? '' });
    expect(seen.first).toBe(1);
    expect(seen.between).toEqual(['count 2']);
    expect(seen.replies).toEqual(['count 1']);
    expect(seen.general).toHaveLength(1);
    expect(seen.refusals).toEqual([]);
  }, 120_000);
});
