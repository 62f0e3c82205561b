import { randomUUID } from 'node:crypto';
import { type MessageContext, OnMessage } from '@boardbot/core';
import { type AgentOptions, defineAgent } from '@boardbot/core/agents';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { jsonSchema, simulateReadableStream, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { MockLanguageModel, type MockModel, type StreamPart, usage } from './mock-model.js';

// An agent's bounds (docs/assistants.md, "Bounds"), offline with the AI SDK's mock model.

/** Calls `count` three times, then says what the last call gave it. */
function countingModel(): MockModel {
  let step = 0;
  return new MockLanguageModel({
    doStream: async ({ prompt }) => {
      const last = JSON.stringify(
        prompt
          .filter((m) => m.role === 'tool')
          .at(-1)
          ?.content.at(-1) ?? null,
      );
      const chunks: StreamPart[] =
        step++ < 3
          ? [
              { type: 'tool-call', toolCallId: randomUUID(), toolName: 'count', input: '{}' },
              { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
            ]
          : [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: `last: ${last}` },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
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

async function start(options: Partial<AgentOptions>) {
  let counted = 0;
  const count = tool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => ++counted });
  const agent = defineAgent({ name: 'counter', model: countingModel(), tools: () => ({ count }), ...options });
  class Ask {
    @OnMessage(/@counter\b/)
    answer(ctx: MessageContext) {
      return agent.answer(ctx, [{ role: 'user', content: 'count' }]);
    }
  }
  platform = await createTestPlatform({ handlers: [Ask], plugins: [agent.plugin] });
  return { p: platform, counted: () => counted };
}

describe('bounds of a turn', () => {
  it('refuses the tool calls past maxToolCalls as the tool error the model reads', async () => {
    const { p, counted } = await start({ maxToolCalls: 2 });
    const asked = await p.person('alice').say('@counter go');
    const answer = await p.bot.nextAnswer({ replyTo: asked }).final();
    expect(counted()).toBe(2);
    expect(answer.text).toContain('error-text');
    expect(answer.text).toContain('maxToolCalls');
  });

  it('stops the model after maxSteps steps', async () => {
    const { p, counted } = await start({ maxSteps: 2 });
    const asked = await p.person('alice').say('@counter go');
    await p.settle();
    expect(counted()).toBe(2);
    expect(p.bot.messages({ replyTo: asked }).map((m) => m.content)).toEqual(['(no answer)']);
  });

  it('refuses a person past turnsPerMinute; another person may still ask', async () => {
    const { p } = await start({ turnsPerMinute: 1 });
    await p.bot.nextAnswer({ replyTo: await p.person('alice').say('@counter one') }).final();
    const again = await p.person('alice').say('@counter two');
    const refusal = await p.bot.nextMessage({ replyTo: again });
    expect(refusal.content).toContain('turnsPerMinute');
    const bob = await p.bot.nextAnswer({ replyTo: await p.person('bob').say('@counter three') }).final();
    expect(bob.text).toContain('last:');
  });
});
