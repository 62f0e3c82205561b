import { randomUUID } from 'node:crypto';
import { type Clock, MemorySessionStore } from '@boardbot/core';
import { agents, commandTools, defineAgent } from '@boardbot/core/agents';
import { type LogLine, recordingLogger } from '@boardbot/test-support';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { anotherInstance, eventually, HeldPositions } from '../support.js';
import { byPrompt, callTool, scripted } from './mock-model.js';
import { Coin } from './moderation-commands.js';
import { askingCommand, pinTool } from './pin-agent.js';

// A turn begun by a slash command: answered through the interaction, its tools acting for the
// person who invoked it; approved past the interaction's 15 minutes, answered on the board, once.

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe('a turn begun by a slash command', () => {
  it('streams its answer through the interaction, its command tools run as the invoking person', async () => {
    const model = scripted([callTool('coin', {}, randomUUID())]);
    const agent = defineAgent({ name: 'helper', model, tools: (ctx) => commandTools(ctx, [Coin]) });
    const p = await createTestPlatform({ handlers: [askingCommand(agent), Coin], plugins: [agents(), agent.plugin] });
    platform = p;
    const interaction = await p.person('alice').start('ask', { question: 'toss a coin' });
    const answer = await p.bot.nextAnswer({ interaction }).final();
    expect(answer.text).toBe('done: "heads for alice"');
    // The model read the command as typed; the cooldown of /coin was charged to alice.
    expect(model.doStreamCalls[0]?.prompt.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: '/ask question: toss a coin' }],
    });
    expect((await p.person('alice').invoke('coin')).content).toMatch(/^Slow down: \/coin/);
    expect((await p.person('bob').invoke('coin')).content).toBe('heads for bob');
  });

  it("counts the invocation among the person's turns: past turnsPerMinute, the command answers with the bound", async () => {
    const agent = defineAgent({ name: 'helper', model: byPrompt([]), turnsPerMinute: 1 });
    const p = await createTestPlatform({ handlers: [askingCommand(agent)], plugins: [agent.plugin] });
    platform = p;
    const first = await p.person('alice').start('ask', { question: 'one' });
    expect((await p.bot.nextAnswer({ interaction: first }).final()).text).toBe('done: undefined');
    expect((await p.person('alice').invoke('ask', { question: 'two' })).content).toContain('turnsPerMinute');
  });

  it("approved by a /approve handled past the interactions' 15 minutes, answers on the board, once when handled again", async () => {
    let later = 0;
    const model = scripted([callTool('pin', { text: 'plan' }, randomUUID())]);
    // An approval may wait longer than an interaction lives.
    const agent = defineAgent({
      name: 'helper',
      model,
      approvalTimeoutMs: 60 * 60_000,
      tools: (ctx) => ({ pin: pinTool(ctx) }),
    });
    const position = new HeldPositions();
    const sessions = new MemorySessionStore();
    // The bot's clock moves with the emulator's: it sees both interactions expire.
    const clock: Clock = {
      now: () => Date.now() + later,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    };
    const options = { handlers: [askingCommand(agent)], plugins: [agents(), agent.plugin], position, sessions, clock };
    const p = await createTestPlatform({ ...options, emulator: { now: () => Date.now() + later } });
    platform = p;
    const ask = await p.person('alice').start('ask', { question: 'pin the plan' });
    // The request is the interaction's answer; the turn waits in the store, its event finished.
    const request = await p.bot.nextMessage({ interaction: ask, content: /Approval needed/ });
    await position.passed(request);
    await p.bot.runtime.stop();
    // Invoked while the bot is down; the next process starts 20 minutes later, both tokens expired.
    const approve = await p.person('alice').start('approve');
    later = 20 * 60_000;
    position.held = true;
    const next = anotherInstance(p, options);
    const log = recordingLogger();
    const third = anotherInstance(p, { ...options, logger: log });
    try {
      await next.start();
      const answered = p.bot.nextAnswer({
        where: (m) => m.reply_to === null && m.id !== request.id && !m.content?.startsWith('📌'),
      });
      const answer = await answered.final();
      expect(answer.text).toBe('done: "pinned"');
      await next.stop();
      // The resume point was held: the third process handles the /approve again, to the turn's end.
      await third.start();
      const again = (l: LogLine) => l.msg === 'agent turn already answered: its record says so';
      await eventually(async () => log.lines.some(again), 'the /approve handled again');
      const all = await p.messages();
      expect(all.filter((m) => m.content === '📌 plan')).toHaveLength(1);
      expect(all.filter((m) => m.content === 'done: "pinned"')).toHaveLength(1);
      expect(all.filter((m) => m.interaction?.id === ask.id).map((m) => m.id)).toEqual([request.id]);
      expect(all.filter((m) => m.interaction?.id === approve.id)).toEqual([]);
      expect(all.find((m) => m.id === request.id)?.content).toMatch(/^✅ Approved by/);
      expect(model.doStreamCalls).toHaveLength(2);
    } finally {
      await next.stop();
      await third.stop();
    }
  });
});
