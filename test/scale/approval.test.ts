import { botMessages, until } from '@boardbot/test-support';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, cluster } from './support/cluster.js';
import { buildReplicaBot } from './support/replica-process.js';

// docs/assistants.md, "Approvals" and docs/scaling.md: the fixture's agent (test/fixtures/approval-agent)
// on two replicas as real processes sharing a real redis-server, on a mock model whose tool-call ids
// change on every call. The replica that takes the approving reply pins, then is killed with SIGKILL
// before it answers; the other, which never saw the turn, gets the reply again and finishes it.

beforeAll(() => buildReplicaBot(), 180_000);

let c: Cluster | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

describe('an approval on two replicas, the approving one killed with SIGKILL', () => {
  it('is finished by the other from Redis: one request (approved), one pin, one answer, the model asked twice', async () => {
    const cl = await cluster({ requests: 1_000_000, extra: { REPLICA_LEASE_MS: '1500', APPROVAL: '1' } });
    c = cl;
    const messages = async () => botMessages(await cl.platform.messages('general'), cl.platform.bot.app.bot_user_id);
    const alice = cl.platform.person('alice');

    const first = cl.start({ APPROVAL_HOLD: '1' });
    await first.started();
    const asked = await alice.say('@helper pin the plan');
    await first.waitFor((l) => l.msg === 'agent turn waits for approval');
    const request = (await messages()).find((m) => m.reply_to === asked.id);
    expect(request?.content).toContain('Approval needed');
    const yes = await alice.reply(request as NonNullable<typeof request>, 'yes');
    await first.waitFor((l) => l.msg === 'fixture pinned');

    const second = cl.start();
    await second.started();
    await first.signal('SIGKILL');
    await until(
      async () => (await messages()).some((m) => m.reply_to === yes.id && m.content?.startsWith('done')),
      'the answer',
      {
        timeoutMs: 60_000,
        intervalMs: 100,
        report: () => cl.report(),
      },
    );
    await second.stop();

    const all = await messages();
    expect(all.find((m) => m.id === request?.id)?.content).toMatch(/^✅ Approved by/);
    expect(all.filter((m) => m.reply_to === asked.id)).toHaveLength(1);
    expect(all.filter((m) => m.content?.startsWith('📌'))).toHaveLength(1);
    expect(all.filter((m) => m.content?.startsWith('done'))).toHaveLength(1);
    const lines = [...first.lines, ...second.lines];
    expect(lines.filter((l) => l.msg === 'fixture model called')).toHaveLength(2);
    // The second replica finished the turn: it ran the approved call again, under the same write key.
    expect(second.lines.some((l) => l.msg === 'fixture pinned')).toBe(true);
  }, 120_000);
});
