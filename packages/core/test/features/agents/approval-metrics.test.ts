import { randomUUID } from 'node:crypto';
import { defineAgent } from '@boardbot/core/agents';
import { promtoolCheck, sample } from '@boardbot/test-support';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { byPrompt, callTool } from './mock-model.js';
import { askingHandler, pinTool } from './pin-agent.js';

// The approvals' counts on the bot's /metrics, beside the OpenTelemetry counter.

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe("an agent's approvals on /metrics", () => {
  it('counts the requests and each decision by outcome, under names promtool accepts', async () => {
    const model = byPrompt([() => callTool('pin', { text: 'plan' }, randomUUID())]);
    const agent = defineAgent({ name: 'helper', model, tools: (ctx) => ({ pin: pinTool(ctx) }) });
    const p = await createTestPlatform({
      handlers: [askingHandler(agent)],
      plugins: [agent.plugin],
      health: { port: 0 },
    });
    platform = p;
    const ask = async () => {
      const question = await p.person('alice').say('@helper pin the plan');
      const request = await p.bot.nextMessage({ replyTo: question, content: /Approval needed/ });
      await p.settle();
      return request;
    };
    const first = await ask();
    await p.person('bob').reply(first, 'yes');
    await p.settle();
    const yes = await p.person('alice').reply(first, 'yes');
    await p.bot.nextAnswer({ replyTo: yes }).final();
    const second = await ask();
    expect(await agent.approvals.cancel(second.id)).toBe(true);

    const metrics = await (await fetch(`${p.bot.runtime.healthUrl}/metrics`)).text();
    const decisions = (decision: string) =>
      sample(metrics, 'boardbot_agent_approval_decisions_total', { agent: 'helper', decision });
    expect(sample(metrics, 'boardbot_agent_approval_requests_total', { agent: 'helper' })).toBe(2);
    expect(['approved', 'ignored', 'cancelled', 'denied', 'timeout'].map(decisions)).toEqual([1, 1, 1, 0, 0]);
    const lint = await promtoolCheck(metrics);
    expect(lint.output).toBe('');
    expect(lint.code).toBe(0);
  });
});
