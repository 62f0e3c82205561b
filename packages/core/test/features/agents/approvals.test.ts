import { randomUUID } from 'node:crypto';
import type { CommandContext, MessageContext } from '@boardbot/core';
import { Command, Option } from '@boardbot/core';
import { type AgentDefinition, type AgentOptions, agents, commandTools, defineAgent } from '@boardbot/core/agents';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { simulateReadableStream } from 'ai';
import { IsString } from 'class-validator';
import { afterEach, describe, expect, it } from 'vitest';
import { MockLanguageModel, type MockModel, type Prompt, type StreamPart, usage } from './mock-model.js';
import { askingHandler, pinTool } from './pin-agent.js';

// Approvals, offline: the AI SDK's mock model scripts the tool calls, with ids that change on every
// call (as a real model's do), the bot runs on a real emulator over loopback.

/** What the last tool message of the prompt gave the model: a result, an error or a denial. */
function lastToolOutput(prompt: Prompt): string {
  const part = prompt
    .filter((m) => m.role === 'tool')
    .at(-1)
    ?.content.at(-1) as { output?: unknown } | undefined;
  return JSON.stringify(part?.output ?? null);
}

/** First asks to pin `text`, then answers with what the tool gave it. */
function pinningModel(text: string): MockModel {
  return new MockLanguageModel({
    doStream: async ({ prompt }) => {
      const asked = prompt.some((m) => m.role === 'tool');
      const chunks: StreamPart[] = asked
        ? [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: `done: ${lastToolOutput(prompt)}` },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ]
        : [
            { type: 'tool-call', toolCallId: randomUUID(), toolName: 'pin', input: JSON.stringify({ text }) },
            { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
          ];
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

class PinOptions {
  @Option({ description: 'What to pin' }) @IsString() text!: string;
}

@Command({ name: 'pin', description: 'Pins a note on the board', options: PinOptions })
class PinCommand {
  async run(ctx: CommandContext, { text }: PinOptions) {
    await ctx.send({ content: `📌 ${text} by ${ctx.user.username}` });
    return 'pinned';
  }
}

async function start(model: MockModel, options: Partial<AgentOptions> = {}, clock?: TestClock) {
  const agent = defineAgent({ name: 'helper', model, tools: (ctx) => ({ pin: pinTool(ctx) }), ...options });
  platform = await createTestPlatform({
    handlers: [askingHandler(agent), PinCommand],
    plugins: [agents(), agent.plugin],
    ...(clock ? { clock } : {}),
  });
  return { p: platform, agent };
}

const pins = (p: TestPlatform) => p.bot.messages().filter((m) => m.content?.startsWith('📌'));

async function asked(p: TestPlatform, agent: AgentDefinition, who = 'alice') {
  const question = await p.person(who).say('@helper pin the plan');
  const request = await p.bot.nextMessage({ replyTo: question, content: /Approval needed/ });
  // The turn's event finishes once the request is saved, after it was posted.
  await p.settle();
  return { question, request, pending: await agent.approvals.list() };
}

describe('approvals', () => {
  it("posts the request, and on the asker's yes edits it, writes once and answers once, the model asked twice", async () => {
    const model = pinningModel('plan');
    const { p, agent } = await start(model);
    const { request, pending } = await asked(p, agent);
    expect(request.content).toContain('`pin` {"text":"plan"}');
    expect(pending.map((a) => a.id)).toEqual([request.id]);
    const yes = await p.person('alice').reply(request, 'yes');
    const answer = await p.bot.nextAnswer({ replyTo: yes }).final();
    expect(answer.text).toBe('done: {"type":"text","value":"pinned"}');
    expect(pins(p).map((m) => m.content)).toEqual(['📌 plan']);
    expect(p.bot.messages().find((m) => m.id === request.id)?.content).toMatch(/^✅ Approved by/);
    expect(model.doStreamCalls).toHaveLength(2);
    expect(await agent.approvals.list()).toEqual([]);
    // The audit trail: the decision and the call, each logged with the agent.
    const decided = p.logs.find({ msg: 'approval decided' });
    expect(decided.map((l) => [l.agent, l.decision, l.approval])).toEqual([['helper', 'approved', request.id]]);
    const calls = p.logs.find({ msg: 'agent tool call' });
    expect(calls.map((l) => [l.agent, l.tool, l.outcome, l.input])).toEqual([
      ['helper', 'pin', 'ok', { text: 'plan' }],
    ]);
  });

  it('on a no, writes nothing and the model is told it was denied', async () => {
    const { p, agent } = await start(pinningModel('plan'));
    const { request } = await asked(p, agent);
    const no = await p.person('alice').reply(request, 'non');
    const answer = await p.bot.nextAnswer({ replyTo: no }).final();
    expect(answer.text).toContain('execution-denied');
    expect(pins(p)).toEqual([]);
    expect(p.bot.messages().find((m) => m.id === request.id)?.content).toMatch(/^❌ Denied by/);
  });

  it("ignores another person's yes; a second answer, after the decision, decides nothing", async () => {
    const model = pinningModel('plan');
    const { p, agent } = await start(model);
    const { request } = await asked(p, agent);
    await p.person('bob').reply(request, 'yes');
    await p.settle();
    expect(pins(p)).toEqual([]);
    expect(await agent.approvals.list()).toHaveLength(1);
    const no = await p.person('alice').reply(request, 'no');
    await p.bot.nextAnswer({ replyTo: no }).final();
    await p.person('alice').reply(request, 'yes');
    await p.settle();
    expect(pins(p)).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it('lets a role approve when approvers name it', async () => {
    const { p, agent } = await start(pinningModel('plan'), { approvers: { asker: false, roles: ['admin'] } });
    const { request } = await asked(p, agent, 'mia');
    await p.person('mia').reply(request, 'yes');
    await p.settle();
    expect(pins(p)).toEqual([]);
    const yes = await p.person('ada', { role: 'admin' }).reply(request, 'approve');
    await p.bot.nextAnswer({ replyTo: yes }).final();
    expect(pins(p)).toHaveLength(1);
  });

  it('denies on timeout: the sweep edits the request, a late yes writes nothing', async () => {
    const clock = new TestClock('2026-03-02T09:00:30Z');
    const model = pinningModel('plan');
    const { p, agent } = await start(model, { approvalTimeoutMs: 5 * 60_000 }, clock);
    const { request } = await asked(p, agent);
    clock.advanceTo('2026-03-02T09:06:00Z');
    const edited = await p.bot.nextEdit({ id: request.id });
    expect(edited.content).toMatch(/^⌛ Denied, no answer in time/);
    await p.person('alice').reply(request, 'yes');
    await p.settle();
    expect(pins(p)).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(1);
    expect(await agent.approvals.list()).toEqual([]);
  });

  it('cancels a pending approval: its answer decides nothing', async () => {
    const clock = new TestClock('2026-03-02T09:00:30Z');
    const { p, agent } = await start(pinningModel('plan'), {}, clock);
    const { request } = await asked(p, agent);
    expect(await agent.approvals.cancel(request.id)).toBe(true);
    expect(await agent.approvals.cancel(request.id)).toBe(false);
    clock.advanceTo('2026-03-02T09:01:00Z');
    expect((await p.bot.nextEdit({ id: request.id })).content).toMatch(/^🚫 Cancelled/);
    await p.person('alice').reply(request, 'yes');
    await p.settle();
    expect(pins(p)).toEqual([]);
  });

  it("makes commandTools' tools wait for approval with { needsApproval: true }", async () => {
    const tools = (ctx: MessageContext) => commandTools(ctx, [PinCommand], { needsApproval: true });
    const { p, agent } = await start(pinningModel('plan'), { tools });
    const { request } = await asked(p, agent);
    expect(pins(p)).toEqual([]);
    const yes = await p.person('alice').reply(request, 'oui');
    const answer = await p.bot.nextAnswer({ replyTo: yes }).final();
    expect(answer.text).toBe('done: {"type":"text","value":"pinned"}');
    expect(pins(p).map((m) => m.content)).toEqual(['📌 plan by alice']);
  });
});
