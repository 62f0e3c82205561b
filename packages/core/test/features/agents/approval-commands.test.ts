import { randomUUID } from 'node:crypto';
import { type MessageContext, OnMessage } from '@boardbot/core';
import { agents, defineAgent } from '@boardbot/core/agents';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { jsonSchema, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, lastToolOutput, type MockModel, scripted } from './mock-model.js';

// `/approve` and `/deny` (and `!approve`, `!deny`) from the agents() plugin: the same rules as the
// reply words, through the emulator's real slash invocations and messages.

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

/** An agent whose `pin` tool (posting `📌 text`) waits for the asker's approval. */
async function start(): Promise<{ p: TestPlatform; model: MockModel }> {
  const model = scripted([callTool('pin', { text: 'plan' }, randomUUID())]);
  const agent = defineAgent({
    name: 'helper',
    model,
    tools: (ctx) => ({
      pin: tool({
        description: 'Pins a note on the board',
        inputSchema: jsonSchema<{ text: string }>({ type: 'object', properties: { text: { type: 'string' } } }),
        needsApproval: true,
        execute: async ({ text }) => {
          await ctx.send({ content: `📌 ${text}` });
          return 'pinned';
        },
      }),
    }),
  });
  class Ask {
    @OnMessage(/@helper\b/)
    answer(ctx: MessageContext) {
      return agent.answer(ctx, [{ role: 'user', content: ctx.message.content ?? '' }]);
    }
  }
  platform = await createTestPlatform({ handlers: [Ask], plugins: [agents(), agent.plugin] });
  return { p: platform, model };
}

const pins = (p: TestPlatform) => p.bot.messages().filter((m) => m.content?.startsWith('📌'));

/** Alice asks; the request, and the code it shows for the commands. */
async function asked(p: TestPlatform) {
  const question = await p.person('alice').say('@helper pin the plan');
  const request = await p.bot.nextMessage({ replyTo: question, content: /Approval needed/ });
  await p.settle();
  const code = /`\/approve (\w+)`/.exec(request.content ?? '')?.[1];
  if (code === undefined) throw new Error(`no code in ${request.content}`);
  return { request, code };
}

describe('the /approve and /deny commands', () => {
  it("approves the newest request the person may decide with a bare /approve: the turn's answer is the interaction's", async () => {
    const { p, model } = await start();
    const { request } = await asked(p);
    const interaction = await p.person('alice').start('approve');
    const answer = await p.bot.nextAnswer({ interaction }).final();
    expect(answer.text).toBe('done: "pinned"');
    expect(pins(p).map((m) => m.content)).toEqual(['📌 plan']);
    expect(p.bot.messages().find((m) => m.id === request.id)?.content).toMatch(/^✅ Approved by/);
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it('denies by the code with !deny as text; a second answer decides nothing', async () => {
    const { p, model } = await start();
    const { request, code } = await asked(p);
    const deny = await p.person('alice').say(`!deny ${code}`);
    await p.bot.nextAnswer({ replyTo: deny }).final();
    const resumed = model.doStreamCalls[1]?.prompt;
    expect(resumed && lastToolOutput(resumed).type).toBe('execution-denied');
    expect(p.bot.messages().find((m) => m.id === request.id)?.content).toMatch(/^❌ Denied by/);
    const again = await p.person('alice').invoke('approve', { request: code });
    expect(again.content).toBe('This request was already decided.');
    expect(pins(p)).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it("refuses a person who is not an approver, whose /approve decides nothing; the asker's !approve reply then does", async () => {
    const { p } = await start();
    const { request, code } = await asked(p);
    const refused = await p.person('bob').invoke('approve', { request: code });
    expect(refused.content).toBe('You may not decide this request.');
    expect((await p.person('bob').invoke('approve')).content).toBe(
      'There is no pending request on this board that you may decide.',
    );
    expect(pins(p)).toEqual([]);
    expect(p.bot.messages().find((m) => m.id === request.id)?.content).toMatch(/^🔐 Approval needed/);
    // A bare `!approve` replying to the request is the reply's answer: decided once, the command silent.
    const yes = await p.person('alice').reply(request, '!approve');
    const answer = await p.bot.nextAnswer({ replyTo: yes }).final();
    expect(answer.text).toBe('done: "pinned"');
    await p.settle();
    expect(p.bot.messages().filter((m) => m.reply_to === yes.id)).toHaveLength(1);
    expect(pins(p)).toHaveLength(1);
  });
});
