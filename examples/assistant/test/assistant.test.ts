import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { simulateReadableStream } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { assistantOf, SYSTEM } from '../src/assistant.js';
import { MockLanguageModel, type StreamPart } from './mock-model.js';

// The assistant against a real in-process emulator, its model the AI SDK's own mock: offline. The
// AI SDK is the one this Node's tests use (ai 7 on Node 22 and later, ai 6 on Node 20: see
// scripts/ai-sdk.mjs), so CI runs these against both majors.

// The usage shape of the v3 and v4 specifications (ai 5's v2 had flat numbers).
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};
const text = (id: string, pieces: string[]): StreamPart[] => [
  { type: 'text-start', id },
  ...pieces.map((delta): StreamPart => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];
const toolCall: StreamPart[] = [
  { type: 'tool-call', toolCallId: 'call-1', toolName: 'boardMembers', input: '{}' },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
];

/** A mock model that streams each of `steps` in turn, one per call. */
function scripted(steps: StreamPart[][]) {
  let call = 0;
  return new MockLanguageModel({
    doStream: async () => ({ stream: simulateReadableStream({ chunks: steps[call++] ?? text('x', ['?']) }) }),
  });
}

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe('the assistant', () => {
  it("runs on this Node's AI SDK major, with its own mock model", () => {
    const nodeMajor = Number(process.versions.node.split('.')[0]);
    expect(scripted([]).specificationVersion).toBe(nodeMajor >= 22 ? 'v4' : 'v3');
  });

  it('streams the model answer into one reply, the thread as its input', async () => {
    const model = scripted([text('t', ['Paris ', 'is the ', 'capital.'])]);
    platform = await createTestPlatform({ handlers: [assistantOf(model)] });
    const asked = await platform.person('alice').say('@assistant what is the capital of France?');
    const answer = await platform.bot.nextAnswer({ replyTo: asked }).final();
    expect(answer.text).toBe('Paris is the capital.');
    const prompt = model.doStreamCalls[0]?.prompt;
    expect(prompt?.[0]).toEqual({ role: 'system', content: SYSTEM });
    expect(JSON.stringify(prompt?.at(-1))).toContain('Alice: @assistant what is the capital of France?');
  });

  it("calls its tool to read the board's members through ctx.rest", async () => {
    const model = scripted([toolCall, text('t', ['Alice and ', 'the bot.'])]);
    platform = await createTestPlatform({ handlers: [assistantOf(model)] });
    const asked = await platform.person('alice').say('@assistant who is here?');
    const answer = await platform.bot.nextAnswer({ replyTo: asked }).final();
    expect(answer.text).toBe('Alice and the bot.');
    // The second call carries the tool's result: the members the platform listed (Bob never spoke).
    const second = JSON.stringify(model.doStreamCalls[1]?.prompt);
    expect(second).toContain('tool-result');
    expect(second).toContain('Bob');
  });
});
