import { randomUUID } from 'node:crypto';
import { type Clock, MemorySessionStore } from '@boardbot/core';
import { agents, defineAgent } from '@boardbot/core/agents';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { anotherInstance, HeldPositions } from '../support.js';
import { callTool, scripted } from './mock-model.js';
import { askingHandler, pinTool } from './pin-agent.js';

// A turn's writes are recorded: the approving reply handled again more than a day later, when the
// platform no longer knows the writes' idempotency keys, runs none of the turn's calls again and
// posts no second answer.

const DAY = 24 * 3_600_000;

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

/**
 * An agent whose `pin` tool waits for approval, on an emulator whose clock is `shift()` ahead of
 * the bot's (its idempotency keys and interactions age on it); and the next process of the bot.
 */
async function start(shift: () => number) {
  const model = scripted([callTool('pin', { text: 'plan' }, randomUUID())]);
  const agent = defineAgent({
    name: 'helper',
    model,
    approvalTimeoutMs: 3 * DAY,
    tools: (ctx) => ({ pin: pinTool(ctx) }),
  });
  const position = new HeldPositions();
  const sessions = new MemorySessionStore();
  // The bot's clock moves with the emulator's: it sees the interaction expire too.
  const clock: Clock = {
    now: () => Date.now() + shift(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
  const options = { handlers: [askingHandler(agent)], plugins: [agents(), agent.plugin], position, sessions, clock };
  const p = await createTestPlatform({ ...options, emulator: { now: () => Date.now() + shift() } });
  platform = p;
  const question = await p.person('alice').say('@helper pin the plan');
  const request = await p.bot.nextMessage({ replyTo: question, content: /Approval needed/ });
  // The resume point is stored past the asking message: the next process does not handle it again.
  await position.passed(question);
  return { p, position, question, request, next: anotherInstance(p, options) };
}

describe("a turn's record of its writes", () => {
  it('writes and answers once when the approving reply is handled again a day later, past the 24 h key window', async () => {
    let later = 0;
    const { p, position, question, request, next } = await start(() => later);
    try {
      position.held = true;
      const yes = await p.person('alice').reply(request, 'yes');
      await p.bot.nextAnswer({ replyTo: yes }).final();
      await p.bot.runtime.stop();
      // A day and an hour later, the next process handles the approving reply again.
      later = DAY + 3_600_000;
      const handledAgain = position.handled(yes);
      await next.start();
      await handledAgain;
      const all = await p.messages();
      expect(all.filter((m) => m.content === '📌 plan')).toHaveLength(1);
      expect(all.filter((m) => m.reply_to === question.id)).toHaveLength(1);
      // The streamed answer too: its own record and its keys are forgotten, the turn's record is not.
      expect(all.filter((m) => m.reply_to === yes.id).map((m) => m.content)).toEqual(['done: "pinned"']);
    } finally {
      await next.stop();
    }
  });

  it("answers on the board when a /approve is handled past its interaction's 15 minutes", async () => {
    let later = 0;
    const { p, question, request, next } = await start(() => later);
    try {
      await p.bot.runtime.stop();
      // Invoked while the bot is down; the next process starts 20 minutes later, the token expired.
      const interaction = await p.person('alice').start('approve');
      later = 20 * 60_000;
      await next.start();
      // A reply to the asking message, on the board.
      const answer = await p.bot.nextAnswer({ replyTo: question, where: (m) => m.id !== request.id }).final();
      expect(answer.text).toMatch(/^done/);
      const all = await p.messages();
      expect(all.filter((m) => m.interaction?.id === interaction.id)).toEqual([]);
      expect(all.filter((m) => m.content === '📌 plan')).toHaveLength(1);
    } finally {
      await next.stop();
    }
  });
});
