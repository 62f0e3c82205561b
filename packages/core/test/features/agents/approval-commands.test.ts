import { randomUUID } from 'node:crypto';
import type { Plugin } from '@boardbot/core';
import { agents, defineAgent } from '@boardbot/core/agents';
import { i18n } from '@boardbot/core/i18n';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, lastToolOutput, type MockModel, scripted } from './mock-model.js';
import { askingHandler, pinTool } from './pin-agent.js';

// `/approve` and `/deny` (and `!approve`, `!deny`) from the agents() plugin: the same rules as the
// reply words, through the emulator's real slash invocations and messages.

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

/** An agent whose `pin` tool (posting `📌 text`) waits for the asker's approval. */
async function start(plugins: Plugin[] = []): Promise<{ p: TestPlatform; model: MockModel }> {
  const model = scripted([callTool('pin', { text: 'plan' }, randomUUID())]);
  const agent = defineAgent({ name: 'helper', model, tools: (ctx) => ({ pin: pinTool(ctx) }) });
  platform = await createTestPlatform({
    handlers: [askingHandler(agent)],
    plugins: [agents(), agent.plugin, ...plugins],
  });
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

  it('approves a request whose message was deleted: the turn goes on with nothing left to show', async () => {
    const { p, model } = await start();
    const { request, code } = await asked(p);
    await p.person('alice').delete(request);
    const interaction = await p.person('alice').start('approve', { request: code });
    const answer = await p.bot.nextAnswer({ interaction }).final();
    expect(answer.text).toBe('done: "pinned"');
    expect(pins(p).map((m) => m.content)).toEqual(['📌 plan']);
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it("answers in the person's language", async () => {
    const fr = { boardbot: { approvalNotYours: 'Vous ne pouvez pas trancher cette demande.' } };
    const french = i18n({ resources: { fr }, resolveLocale: (ctx) => (ctx.kind === 'command' ? 'fr' : undefined) });
    const { p } = await start([french]);
    const { code } = await asked(p);
    const refused = await p.person('bob').invoke('approve', { request: code });
    expect(refused.content).toBe('Vous ne pouvez pas trancher cette demande.');
    expect(pins(p)).toEqual([]);
  });
});
