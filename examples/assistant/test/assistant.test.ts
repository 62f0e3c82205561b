import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { MockLanguageModelV2, simulateReadableStream } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { assistantOf, SYSTEM } from '../src/assistant.js';

// The assistant against a real in-process emulator, its model the AI SDK's own mock: offline.

/** One part of a model's stream, as the mock takes it. */
type LanguageModelV2StreamPart =
  Awaited<ReturnType<MockLanguageModelV2['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const usage = { inputTokens: 10, outputTokens: 20, totalTokens: 30 };
const text = (id: string, pieces: string[]): LanguageModelV2StreamPart[] => [
  { type: 'text-start', id },
  ...pieces.map((delta): LanguageModelV2StreamPart => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
  { type: 'finish', finishReason: 'stop', usage },
];
const toolCall: LanguageModelV2StreamPart[] = [
  { type: 'tool-call', toolCallId: 'call-1', toolName: 'boardMembers', input: '{}' },
  { type: 'finish', finishReason: 'tool-calls', usage },
];

/** A mock model that streams each of `steps` in turn, one per call. */
function scripted(steps: LanguageModelV2StreamPart[][]) {
  let call = 0;
  return new MockLanguageModelV2({
    doStream: async () => ({ stream: simulateReadableStream({ chunks: steps[call++] ?? text('x', ['?']) }) }),
  });
}

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe('the assistant', () => {
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
