import { type MessageContext, OnMessage } from '@boardbot/core';
import { simulateReadableStream, stepCountIs, streamText, type ToolSet } from 'ai';
import * as aiTest from 'ai/test';

// The AI SDK's own mock model, scripted, for the agents' tests: the bot runs on a real emulator over
// loopback, the model is the only thing not real. The mock of the installed major (v4 on ai 7, v3 on ai 6).

/** The mock model class of the installed `ai`. */
export const MockLanguageModel = ((aiTest as Record<string, unknown>).MockLanguageModelV4 ??
  aiTest.MockLanguageModelV3) as typeof aiTest.MockLanguageModelV3;
/** A mock model. */
export type MockModel = InstanceType<typeof MockLanguageModel>;
/** A part of what the mock streams. */
export type StreamPart =
  Awaited<ReturnType<MockModel['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;
/** What the model was given. */
export type Prompt = Parameters<MockModel['doStream']>[0]['prompt'];

/** The token usage every scripted step reports. */
export const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A step that calls one tool. */
export const callTool = (toolName: string, input: object, id: string): StreamPart[] => [
  { type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
];

/** A step that answers `text`. */
export const say = (text: string): StreamPart[] => [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: text },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];

/** What each tool message of the prompt gave the model, in order: its result, or its error's text. */
export function toolOutputs(prompt: Prompt): { type: string; value: unknown }[] {
  return prompt
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.content as { output?: { type: string; value: unknown } }[])
    .flatMap((part) => (part.output ? [part.output] : []));
}

/** What the last tool message of the prompt gave the model: its result, or its error's text. */
export function lastToolOutput(prompt: Prompt): { type: string; value: unknown } {
  const output = toolOutputs(prompt).at(-1);
  if (!output) throw new Error('the model was not given a tool output');
  return output;
}

/** A model that makes each of `calls` in turn, then answers with what the last tool gave it. */
export function scripted(calls: StreamPart[][]): MockModel {
  let step = 0;
  return new MockLanguageModel({
    doStream: async ({ prompt }) => {
      const chunks = calls[step++] ?? say(`done: ${JSON.stringify(lastToolOutput(prompt).value)}`);
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}

/**
 * A model whose step is read from its prompt (how many tool results it was given), as a real model's
 * would be: the same turn run again takes the same steps. `steps[n]` gets the tool outputs so far;
 * past the last step it answers with the last tool output.
 */
export function byPrompt(steps: ((outputs: { type: string; value: unknown }[]) => StreamPart[])[]): MockModel {
  return new MockLanguageModel({
    doStream: async ({ prompt }) => {
      const outputs = toolOutputs(prompt);
      const step = steps[outputs.length];
      const chunks = step ? step(outputs) : say(`done: ${JSON.stringify(outputs.at(-1)?.value)}`);
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}

/**
 * An assistant handler class: on `@assistant`, it streams what `model` answers with the tools that
 * `tools(ctx)` gives the turn, at most `steps` steps.
 */
export function assistantOf(model: MockModel, tools: (ctx: MessageContext) => Promise<ToolSet>, steps: number) {
  class Assistant {
    @OnMessage(/@assistant\b/i)
    async answer(ctx: MessageContext) {
      const turnTools = await tools(ctx);
      const prompt = ctx.message.content ?? '';
      const { textStream } = streamText({ model, prompt, tools: turnTools, stopWhen: stepCountIs(steps) });
      await ctx.stream(textStream);
    }
  }
  return Assistant;
}
