import type { Message } from '@boardbot/protocol';
import { botMessages } from '@boardbot/test-support';
import { TestClock } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';
import { useScenario } from './support/scenario.js';

// docs/listening-to-messages.md, "Bursts": a debounced burst held while the bot is killed with SIGKILL
// keeps its place before the resume point, and the next process answers it once, with the same keys.
// The bot process runs on the test's clock (moved through its stdin), the emulator dates messages by it.

const openScenario = useScenario();

describe('a debounced burst across a SIGKILL', () => {
  it('is still one run with 4 skipped after the restart: nothing lost, one answer', async () => {
    const clock = new TestClock('2026-03-02T09:00:00Z');
    const s = await openScenario({ now: () => clock.now() });
    const { platform } = s;
    const alice = platform.person('alice');
    const bob = platform.person('bob');
    const first = s.startBot({ BURST_CLOCK: String(clock.now()) });
    await first.started();

    const burst: Message[] = [];
    for (let i = 1; i <= 3; i++) {
      if (i > 1) await first.advance(clock, 200);
      burst.push(await alice.say(`burst ${i}`));
    }
    await first.waitFor((l) => l.msg === 'fixture saw' && l.content === 'burst 3');
    // Bob's message after the burst is answered: the resume point would pass the burst if it could.
    const other = await bob.say('m from bob');
    await platform.bot.nextMessage({ replyTo: other });
    // A flush of the resume point falls due (positionFlushMs): what it saves stays before the burst.
    await first.advance(clock, 200);
    const board = (burst[0] as Message).board_id;
    const saved = first.lines.filter((l) => l.msg === 'fixture saving position');
    for (const line of saved) {
      expect((line.boards as Record<string, number>)[board] ?? 0).toBeLessThan((burst[0] as Message).seq);
    }
    await first.kill();

    // The 4th message while the bot is down, the 5th after the restart, then silence.
    burst.push(await alice.say('burst 4'));
    const second = s.startBot({ BURST_CLOCK: String(clock.now()) });
    await second.started();
    await second.advance(clock, 200);
    burst.push(await alice.say('burst 5'));
    await second.waitFor((l) => l.msg === 'fixture saw' && l.content === 'burst 5');
    await second.advance(clock, 1000);
    const answer = await platform.bot.nextMessage({ replyTo: burst[4] as Message });
    expect(answer.content).toBe('burst of 5: burst 1 | burst 2 | burst 3 | burst 4 | burst 5');

    const runs = [...first.lines, ...second.lines].filter((l) => l.msg === 'fixture ran burst');
    expect(runs).toHaveLength(1);
    const answers = botMessages(await platform.messages('general'), platform.bot.app.bot_user_id).filter((m) =>
      m.content?.startsWith('burst of'),
    );
    expect(answers.map((m) => m.reply_to)).toEqual([(burst[4] as Message).id]);
  }, 120_000);
});
