import { type MessageContext, OnMessage } from '@boardbot/core';
import { type AgentOptions, defineAgent } from '@boardbot/core/agents';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { jsonSchema, simulateReadableStream, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { MockLanguageModel, type MockModel, type StreamPart, usage } from './mock-model.js';

// Progress (docs/assistants.md, "Progress"): the answer shows a status line per tool call, replaced
// by the answer's text, in its throttled edits. The tool waits until the test saw its status.

function readingModel(): MockModel {
  return new MockLanguageModel({
    doStream: async ({ prompt }) => {
      const chunks: StreamPart[] = prompt.some((m) => m.role === 'tool')
        ? [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'The board is quiet.' },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ]
        : [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'readBoard', input: '{}' },
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

async function start(options: Partial<AgentOptions>, gate: Promise<void>) {
  const readBoard = tool({
    inputSchema: jsonSchema({ type: 'object' }),
    execute: async () => {
      await gate;
      return 'nothing new';
    },
  });
  const agent = defineAgent({ name: 'reader', model: readingModel(), tools: () => ({ readBoard }), ...options });
  class Ask {
    @OnMessage(/@reader\b/)
    answer(ctx: MessageContext) {
      return agent.answer(ctx, [{ role: 'user', content: 'news?' }]);
    }
  }
  platform = await createTestPlatform({ handlers: [Ask], plugins: [agent.plugin] });
  return platform;
}

describe('progress of a turn', () => {
  it("shows the tool's status line while it runs, then the answer's text in its place", async () => {
    let open = () => {};
    const p = await start(
      { progress: (name) => (name === 'readBoard' ? 'reading the board…' : name) },
      new Promise((r) => {
        open = r;
      }),
    );
    const asked = await p.person('alice').say('@reader news?');
    const status = await p.bot.nextEdit({ replyTo: asked, content: /reading the board…/ });
    open();
    const answer = await p.bot.nextAnswer({ replyTo: asked }).final();
    expect(answer.parts.map((m) => m.id)).toEqual([status.id]);
    expect(answer.edits.map((m) => m.content)).toContain(`_reading the board…_ ▍`);
    expect(answer.text).toBe('The board is quiet.');
  });
});
