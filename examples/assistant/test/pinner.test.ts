import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { simulateReadableStream } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { pinnerOf } from '../src/pinner.js';
import { MockLanguageModel, type StreamPart } from './mock-model.js';

// The pinner against a real in-process emulator, its model the AI SDK's own mock: it asks to pin a
// summary (a tool needing approval) with a new tool-call id on every call, then answers.
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};
let calls = 0;
const model = new MockLanguageModel({
  doStream: async ({ prompt }) => {
    const chunks: StreamPart[] = prompt.some((m) => m.role === 'tool')
      ? [
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Pinned.' },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
        ]
      : [
          {
            type: 'tool-call',
            toolCallId: `call-${++calls}`,
            toolName: 'pinSummary',
            input: '{"summary":"ship friday"}',
          },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
        ];
    return { stream: simulateReadableStream({ chunks }) };
  },
});

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe('the pinner', () => {
  it('pins the summary once the asker approves, and not before; the request shows the outcome', async () => {
    const pinner = pinnerOf(model);
    platform = await createTestPlatform({ handlers: [pinner.handler], plugins: [pinner.plugin] });
    const alice = platform.person('alice');
    const asked = await alice.say('@pinner pin a summary: we ship on friday');
    const request = await platform.bot.nextMessage({ replyTo: asked, content: /Approval needed/ });
    expect(request.content).toContain('`pinSummary` {"summary":"ship friday"}');
    await platform.settle();
    expect(platform.bot.messages({ content: /^📌/ })).toEqual([]);
    expect((await pinner.approvals.list()).map((a) => a.id)).toEqual([request.id]);

    const yes = await alice.reply(request, 'yes');
    const answer = await platform.bot.nextAnswer({ replyTo: yes }).final();
    expect(answer.text).toBe('Pinned.');
    expect(platform.bot.messages({ content: /^📌/ }).map((m) => m.content)).toEqual(['📌 ship friday']);
    expect(platform.bot.messages().find((m) => m.id === request.id)?.content).toMatch(/^✅ Approved/);
  });
});
