import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { botMessages } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { expectRepliedOnceInOrder, post, waitForReplies } from './support/replies.js';
import { useScenario } from './support/scenario.js';

const openScenario = useScenario();

// Effects are counted once the bot that made them has exited: a late second write counts too.
describe('a bot that restarts', () => {
  it('handles the 300 messages posted while it was stopped, once each, in order', async () => {
    const s = await openScenario();
    const first = s.startBot();
    await first.started();
    const before = await post(s, 5, 'before');
    await waitForReplies(s, before);
    expect(await first.stop()).toBe(0);
    await expectRepliedOnceInOrder(s, before);

    const whileDown = await post(s, 300, 'down');
    const second = s.startBot();
    await second.started();
    expect(second.lines.some((l) => l.msg === 'resuming after the stored position')).toBe(true);
    await waitForReplies(s, [...before, ...whileDown]);
    expect(await second.stop()).toBe(0);
    await expectRepliedOnceInOrder(s, [...before, ...whileDown]);
  }, 120_000);

  it("backfills from each board's stored seq when the platform no longer has its resume point", async () => {
    // The emulator keeps almost no events, so the stored resume point is past its retention.
    const s = await openScenario({ limits: { retainedEvents: 1, retainedEventsMs: 0 } });
    const first = s.startBot();
    await first.started();
    const before = await post(s, 3, 'before');
    await waitForReplies(s, before);
    await first.stop();

    const whileDown = await post(s, 40, 'gone');
    const second = s.startBot();
    await second.started();
    await waitForReplies(s, [...before, ...whileDown]);
    const gap = await second.waitFor((l) => l.msg === 'gateway gap: dispatching missed messages');
    expect(gap.messages).toBe(40);
    expect(await second.stop()).toBe(0);
    await expectRepliedOnceInOrder(s, [...before, ...whileDown]);
  }, 120_000);

  it('answers once when a handler with random output is killed after its write and run again', async () => {
    const s = await openScenario();
    const first = s.startBot({ HOLD_AFTER_WRITE: '1' });
    await first.started();
    const [random] = await post(s, 1, 'x').then(async () => [await s?.platform.person('alice').say('random draw')]);
    const wrote = await first.waitFor((l) => l.msg === 'fixture wrote');
    expect(wrote.to).toBe(random?.id);
    await first.kill();

    const second = s.startBot();
    await second.started();
    // waitFor fails after 60 s with the process's last lines.
    const applied = await second.waitFor((l) => typeof l.msg === 'string' && l.msg.startsWith('already applied'));
    expect(applied.handler).toBe('Echo.random');
    expect(await second.stop()).toBe(0);
    const botUser = s.platform.bot.app.bot_user_id;
    const replies = botMessages(await s.platform.messages('general'), botUser).filter((m) => m.reply_to === random?.id);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.id).toBe(wrote.reply);
  }, 120_000);

  it('starts, says what it found and falls back to the previous point when the position file is torn', async () => {
    const s = await openScenario();
    const first = s.startBot();
    await first.started();
    const one = await post(s, 3, 'one');
    await waitForReplies(s, one);
    await first.stop();
    const second = s.startBot();
    await second.started();
    const batch = await post(s, 3, 'two');
    await waitForReplies(s, batch);
    await second.stop();

    const dir = join(s.stateDir, 'positions');
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.json')) as string);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, 20));
    const whileDown = await post(s, 5, 'three');
    const third = s.startBot();
    await third.started();
    const damaged = await third.waitFor((l) => typeof l.msg === 'string' && l.msg.includes('damaged position file'));
    expect(damaged.problem).toMatch(/not JSON/);
    await third.waitFor((l) => l.msg === 'resuming from the previous position file');
    // Resuming from an older point replays events already handled: their writes carry the same keys.
    await waitForReplies(s, [...batch, ...whileDown]);
    expect(await third.stop()).toBe(0);
    await expectRepliedOnceInOrder(s, [...one, ...batch, ...whileDown]);
  }, 120_000);
});
