import type { Message } from '@boardbot/protocol';
import { botMessages } from '@boardbot/test-support';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, cluster } from './support/cluster.js';
import { buildReplicaBot, type ReplicaProcess } from './support/replica-process.js';

// docs/listening-to-messages.md, "Bursts" (replicas): replicas of the fixture bot as real processes on
// a real redis-server and emulator. A replica's Redis leases run on the bot's clock, so these replicas
// run on the real one: the debounce (4 s) outlasts the sweep's 2 × leaseMs (2 s), and the test waits
// on what the replicas log and post, never on a fixed sleep.

beforeAll(() => buildReplicaBot(), 180_000);

let c: Cluster | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

const EXTRA = { REPLICA_LEASE_MS: '1000', REPLICA_BURST_MS: '4000' };

/** The replica that took `content` into its burst. */
function holderOf(all: ReplicaProcess[], content: string): Promise<ReplicaProcess> {
  return Promise.race(all.map((r) => r.waitFor((l) => l.msg === 'fixture saw' && l.content === content).then(() => r)));
}

/** The bot's answers to bursts on general. */
async function burstAnswers(cl: Cluster): Promise<Message[]> {
  const mine = botMessages(await cl.platform.messages('general'), cl.platform.bot.app.bot_user_id);
  return mine.filter((m) => m.content?.startsWith('burst of'));
}

describe('a debounced burst on two replicas', () => {
  it('is held past the sweep without being claimed again, and survives the kill of the replica holding it: one run each, nothing lost', async () => {
    c = await cluster({ requests: 1_000_000, extra: EXTRA });
    const all = [c.start(), c.start()];
    for (const r of all) await r.started();
    const alice = c.platform.person('alice');

    // Held for 4 s on a live replica: its entries count as running, so the sweep (idle 2 s) leaves them.
    const first = [await alice.say('burst 1'), await alice.say('burst 2'), await alice.say('burst 3')];
    await holderOf(all, 'burst 3');
    const answer = await c.platform.bot.nextMessage({ replyTo: first[2] as Message }, { timeoutMs: 30_000 });
    expect(answer.content).toBe('burst of 3: burst 1 | burst 2 | burst 3');

    // Killed while it holds the next burst: the other replica takes the partition and runs it once.
    const second = [await alice.say('burst a'), await alice.say('burst b'), await alice.say('burst c')];
    const holder = await holderOf(all, 'burst c');
    await holder.kill();
    const survivor = all.find((r) => r !== holder) as ReplicaProcess;
    const again = await c.platform.bot.nextMessage({ replyTo: second[2] as Message }, { timeoutMs: 60_000 });
    expect(again.content).toBe('burst of 3: burst a | burst b | burst c');

    // One run of each burst, whichever replica ran it (the order of `all` is not the order of runs).
    const runs = all
      .flatMap((r) => r.lines.filter((l) => l.msg === 'fixture ran burst').map((l) => l.all as string[]))
      .sort((x, y) => (String(x[0]) < String(y[0]) ? -1 : 1));
    expect(runs).toEqual([
      ['burst 1', 'burst 2', 'burst 3'],
      ['burst a', 'burst b', 'burst c'],
    ]);
    expect(survivor.lines.some((l) => l.msg === 'fixture ran burst' && String(l.all).includes('burst a'))).toBe(true);
    expect((await burstAnswers(c)).map((m) => m.reply_to)).toEqual([first[2]?.id, second[2]?.id]);
  }, 180_000);
});
