import { MemoryPositionStore, type MessageContext, OnMessage } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { sample, until } from '@boardbot/test-support';
import { createTestPlatform, type Person, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Deferred, deferred } from './support.js';

// Issue 40, finding 4: one person or one board cannot pause the rest. Before, a flood on a slow
// handler filled maxPendingEvents and paused the gateway for every board: another board's message
// waited until the flood drained. Liveness is asserted by order: the other board's answer comes while
// the flood's first run is still held, so before any of the flood's answers (the pause, today, is the
// only other way the wait below ends). docs/listening-to-messages.md ("Bursts") and
// docs/production.md ("Backpressure").

const FULL = 'intake full: the gateway stops reading until handlers catch up';

/** What each run of the flooded listener stood for. */
interface Run {
  message: string;
  skipped: number;
  skippedCount: number;
}
let runs: Run[] = [];
/** Handled in this order (the queued listener). */
let handled: string[] = [];
/** A model call: every run waits until the test lets it go. */
let slow: Deferred = deferred();

class Flooded {
  @OnMessage(/^flood /, { burst: 'collapse' })
  async collapsed(ctx: MessageContext) {
    runs.push({ message: ctx.message.id, skipped: ctx.skipped.length, skippedCount: ctx.skippedCount });
    await slow.promise;
    return `read ${1 + ctx.skippedCount}`;
  }

  @OnMessage(/^q /)
  async queued(ctx: MessageContext) {
    handled.push(ctx.message.id);
    await slow.promise;
    return `done ${ctx.message.content}`;
  }

  @OnMessage('ping')
  ping() {
    return 'pong';
  }
}

/** Posts `count` messages of one person, `lanes` at a time (the emulator orders them by its seq). */
async function flood(person: Person, count: number, text: (i: number) => string, lanes = 8): Promise<Message[]> {
  const posted: Message[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) posted.push(await person.say(text(next++)));
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return posted.sort((a, b) => a.seq - b.seq);
}

/** The bot's replies on a board, by the message they answer. */
async function repliesOn(platform: TestPlatform, board: string): Promise<Map<string, Message[]>> {
  const replies = new Map<string, Message[]>();
  for (const m of await platform.messages(board)) {
    if (!platform.bot.isOwn(m) || m.reply_to === null) continue;
    replies.set(m.reply_to, [...(replies.get(m.reply_to) ?? []), m]);
  }
  return replies;
}

/** Waits until the ping on the other board is answered, or the intake paused (which answers it late). */
async function pongOrPause(platform: TestPlatform, ping: Message): Promise<boolean> {
  let answered = false;
  await until(
    async () => {
      answered = (await repliesOn(platform, 'random')).has(ping.id);
      return answered || platform.logs.find({ msg: FULL }).length > 0;
    },
    'the other board answered, or the intake paused',
    { timeoutMs: 60_000 },
  );
  return answered;
}

describe('the intake bound shared between boards', () => {
  let platform: TestPlatform | undefined;
  afterEach(async () => {
    slow.resolve();
    await platform?.close();
    platform = undefined;
    runs = [];
    handled = [];
    slow = deferred();
  });

  it("answers another board during one person's flood of 1,100 messages on a slow 'collapse' listener, and accounts for every message once", async () => {
    platform = await createTestPlatform({ handlers: [Flooded], health: { port: 0 }, timeoutMs: 60_000 });
    const posted = await flood(platform.person('alice'), 1_100, (i) => `flood ${i}`);
    const ping = await platform.person('bob').say('ping', { board: 'random' });
    expect(await pongOrPause(platform, ping)).toBe(true);
    // The flood's first run still holds: no answer of the flood came before the other board's.
    expect(runs).toHaveLength(1);
    expect(await repliesOn(platform, 'general')).toEqual(new Map());
    expect(platform.logs.find({ msg: FULL })).toEqual([]);

    slow.resolve();
    const last = posted[posted.length - 1] as Message;
    await platform.bot.nextMessage({ replyTo: last });
    await platform.settle({ timeoutMs: 60_000 });
    // Each message ran once as ctx.message, or is counted once by a run: in ctx.skipped, or released
    // past the burst's cap (its first message kept, for the keys, and its newest ones).
    expect(runs.reduce((sum, run) => sum + 1 + run.skippedCount, 0)).toBe(1_100);
    for (const run of runs) expect(run.skipped).toBeLessThanOrEqual(49);
    const replies = await repliesOn(platform, 'general');
    expect([...replies.values()].every((answers) => answers.length === 1)).toBe(true);
    expect([...replies.keys()].sort()).toEqual(runs.map((run) => run.message).sort());
    expect(replies.get(last.id)?.[0]?.content).toMatch(/^read \d+$/);
    const metrics = await (await fetch(`${platform.bot.runtime.healthUrl}/metrics`)).text();
    const handler = { handler: 'Flooded.collapsed' };
    const released = runs.reduce((sum, run) => sum + run.skippedCount - run.skipped, 0);
    expect(released).toBeGreaterThan(0);
    expect(sample(metrics, 'boardbot_burst_messages_released_total', handler)).toBe(released);
    expect(sample(metrics, 'boardbot_burst_messages_skipped_total', handler)).toBe(1_100 - runs.length);
  }, 180_000);

  it("sets aside a board's messages past its share while a slow handler holds the board, reads them back in order, and answers each once", async () => {
    // A share of 2 events per board once 10 are held in all (of 20).
    const position = new MemoryPositionStore();
    platform = await createTestPlatform({ handlers: [Flooded], health: { port: 0 }, maxPendingEvents: 20, position });
    const alice = platform.person('alice');
    const posted: Message[] = [];
    for (let i = 1; i <= 30; i++) posted.push(await alice.say(`q ${i}`));
    const ping = await platform.person('bob').say('ping', { board: 'random' });
    expect(await pongOrPause(platform, ping)).toBe(true);
    expect(handled).toHaveLength(1);
    const metrics = await (await fetch(`${platform.bot.runtime.healthUrl}/metrics`)).text();
    expect(sample(metrics, 'boardbot_intake_set_aside_total')).toBeGreaterThan(0);
    expect(platform.logs.find({ msg: 'board over its share of the intake' })).toHaveLength(1);
    // A message set aside and deleted before it is read back: nothing to answer, and nothing holds.
    const deleted = posted[25] as Message;
    await alice.delete(deleted);

    slow.resolve();
    await platform.bot.nextMessage({ replyTo: posted[29] as Message });
    await platform.settle();
    const kept = posted.filter((m) => m.id !== deleted.id);
    expect(handled).toEqual(kept.map((m) => m.id));
    const replies = await repliesOn(platform, 'general');
    for (const m of kept) expect(replies.get(m.id)?.map((r) => r.content)).toEqual([`done ${m.content}`]);
    expect(replies.has(deleted.id)).toBe(false);
    expect(platform.logs.find({ msg: FULL })).toEqual([]);
    expect(platform.logs.find({ msg: 'board caught up' }).length).toBeGreaterThan(0);
    // The resume point passed every message of the flood, the deleted one too.
    await platform.bot.runtime.stop();
    const saved = await position.load({ apiUrl: platform.urls.apiUrl, appId: platform.bot.app.id });
    expect(saved?.boards[deleted.board_id]).toBeGreaterThanOrEqual((posted[29] as Message).seq);
  }, 120_000);

  // What a board sets aside is memory: a flood that goes on must not grow the heap without end. Past
  // ten times the bound (200 here), the set-aside messages count toward the bound, and the gateway
  // pauses again until the read-backs catch up; nothing is lost, and the board keeps its order.
  it('pauses the gateway once a board has set aside ten times the bound, and still answers each message once, in order', async () => {
    platform = await createTestPlatform({ handlers: [Flooded], health: { port: 0 }, maxPendingEvents: 20 });
    const posted = await flood(platform.person('alice'), 260, (i) => `q ${i}`, 1);
    await until(() => platform?.logs.find({ msg: FULL }).length === 1, 'the intake paused', { timeoutMs: 60_000 });
    expect(handled).toHaveLength(1);
    const metrics = await (await fetch(`${platform.bot.runtime.healthUrl}/metrics`)).text();
    expect(sample(metrics, 'boardbot_intake_set_aside_total')).toBeGreaterThan(200);
    expect(sample(metrics, 'boardbot_intake_set_aside_total')).toBeLessThan(260);

    slow.resolve();
    await platform.bot.nextMessage({ replyTo: posted[259] as Message }, { timeoutMs: 60_000 });
    await platform.settle({ timeoutMs: 60_000 });
    expect(handled).toEqual(posted.map((m) => m.id));
    const replies = await repliesOn(platform, 'general');
    for (const m of posted) expect(replies.get(m.id)).toHaveLength(1);
  }, 180_000);
});
