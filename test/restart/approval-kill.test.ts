import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { botMessages, until } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { refused } from './support/bot-process.js';
import { useScenario } from './support/scenario.js';

// docs/assistants.md, "Approvals": the fixture's agent (test/fixtures/restart-bot, APPROVAL=1) asks to
// pin a note, a tool needing approval, on a mock model whose tool-call ids change on every call. The
// bot process is killed with SIGKILL while the turn waits; the asker approves while it is down; the
// next process finishes the turn.

const openScenario = useScenario();

describe('an approval that outlives a SIGKILL', () => {
  it('finishes the turn in the next process: one request (edited to approved), one write, one answer, the model asked twice', async () => {
    const s = await openScenario();
    const first = s.startBot({ APPROVAL: '1' });
    await first.started();
    const alice = s.platform.person('alice');
    const positions = join(s.stateDir, 'positions');
    const stored = () => {
      const file = existsSync(positions) ? readdirSync(positions).find((f) => f.endsWith('.json')) : undefined;
      return file === undefined ? '' : readFileSync(join(positions, file), 'utf8');
    };
    const before = stored();
    const asked = await alice.say('@helper pin the plan');
    await first.waitFor((l) => l.msg === 'agent turn waits for approval');
    // The turn's event is finished while it waits: the resume point is stored past it.
    await until(() => stored() !== before, 'the resume point stored past the asking event');
    await first.kill();

    const messages = async () => botMessages(await s.platform.messages('general'), s.platform.bot.app.bot_user_id);
    const [request] = await messages();
    expect(request?.content).toContain('Approval needed');
    const yes = await alice.reply(request as NonNullable<typeof request>, 'yes');

    const second = s.startBot({ APPROVAL: '1' });
    await second.started();
    await until(
      async () => (await messages()).some((m) => m.reply_to === yes.id && m.content?.startsWith('done')),
      'the answer',
      {
        report: () => s.report(),
      },
    );
    expect(await second.stop()).toBe(0);

    const all = await messages();
    expect(all.filter((m) => m.content?.includes('Approval needed') || m.content?.startsWith('✅'))).toHaveLength(1);
    expect(all.find((m) => m.id === request?.id)?.content).toMatch(/^✅ Approved by/);
    expect(all.filter((m) => m.content?.startsWith('📌'))).toHaveLength(1);
    expect(all.filter((m) => m.content?.startsWith('done'))).toHaveLength(1);
    expect(all.filter((m) => m.reply_to === asked.id)).toHaveLength(1);
    const lines = [...first.lines, ...second.lines];
    // As many model calls as without the kill: the step that asked is not asked again.
    expect(lines.filter((l) => l.msg === 'fixture model called')).toHaveLength(2);
    expect(lines.filter((l) => l.msg === 'fixture pinned')).toHaveLength(1);
    expect(second.lines.some((l) => l.msg === 'agent turn waits for approval')).toBe(false);
    expect(refused(lines)).toEqual([]);
  }, 120_000);
});
