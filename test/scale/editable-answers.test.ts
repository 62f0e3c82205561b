import type { Message } from '@boardbot/protocol';
import { botMessages, until } from '@boardbot/test-support';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, cluster } from './support/cluster.js';
import { buildReplicaBot, type ReplicaProcess } from './support/replica-process.js';

// docs/commands-and-options.md, "Editable text commands", and docs/scaling.md: the link from a
// message to its answers is in the shared session store (Redis), so the replica that gets an edit
// edits the answers another replica posted. Replicas are real processes sharing a real redis-server;
// the one that answered is killed with SIGKILL (or stopped) before each edit, so the next one gets it.

beforeAll(() => buildReplicaBot(), 180_000);

let c: Cluster | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

const RERAN = 'message edited: the text command runs again and edits its answers';

describe('editable answers on replicas sharing Redis', () => {
  it("each edit, handled by another replica than the one that answered, edits that replica's answers", async () => {
    const cl = await cluster({ requests: 1_000_000, extra: { REPLICA_LEASE_MS: '1500' } });
    c = cl;
    const botUser = cl.platform.bot.app.bot_user_id;
    const alice = cl.platform.person('alice');
    const answersTo = async (message: Message) =>
      botMessages(await cl.platform.messages('general'), botUser).filter(
        (m) => m.reply_to === message.id && m.deleted_at === null,
      );
    const answered = async (message: Message, contents: string[]) => {
      const shown = async () => JSON.stringify((await answersTo(message)).map((m) => m.content));
      await until(async () => (await shown()) === JSON.stringify(contents), `answers ${JSON.stringify(contents)}`, {
        timeoutMs: 60_000,
        intervalMs: 100,
        report: () => cl.report(),
      });
      return answersTo(message);
    };
    /** Starts the next replica, then kills (or stops) the one that has the board. */
    let current: ReplicaProcess = cl.start();
    await current.started();
    const handOver = async (how: 'SIGKILL' | 'SIGTERM') => {
      const next = cl.start();
      await next.started();
      if (how === 'SIGKILL') await current.signal('SIGKILL');
      else expect(await current.stop()).toBe(0);
      current = next;
    };

    const message = await alice.say('!dice 2O');
    const [refusal] = await answered(message, ['Sorry, !dice cannot run:\n- sides: expected an integer']);

    await handOver('SIGKILL');
    await alice.edit(message, '!dice 20');
    const [rolled] = await answered(message, ['dice d20']);
    expect(rolled?.id).toBe(refusal?.id);
    expect(current.lines.some((l) => l.msg === RERAN && l.message_id === message.id)).toBe(true);

    await handOver('SIGTERM');
    await alice.edit(message, '!dice 20 twice');
    const two = await answered(message, ['dice d20', 'and another d20']);
    expect(two[0]?.id).toBe(refusal?.id);

    await handOver('SIGKILL');
    await alice.edit(message, '!dice 8 red');
    const [red] = await answered(message, ['dice d8']);
    expect(red?.id).not.toBe(refusal?.id);
    expect(red?.embeds).toMatchObject([{ title: 'red' }]);

    await handOver('SIGTERM');
    await alice.delete(message);
    await answered(message, []);
    expect(await current.stop()).toBe(0);
    const standing = botMessages(await cl.platform.messages('general'), botUser).filter((m) => m.deleted_at === null);
    expect(standing).toEqual([]);
  }, 180_000);
});
