import * as aiTest from 'ai/test';

/**
 * The installed AI SDK's own mock language model: `MockLanguageModelV4` on ai 7, whose models speak
 * the v4 specification, `MockLanguageModelV3` on ai 6 (ai 7 still takes a v3 model, through an
 * adapter, so ai 7 gets its own). The two take the same stream parts for what these tests stream
 * (text, a tool call, a finish with its usage), so the tests are written once against the v3 type.
 */
export const MockLanguageModel = ((aiTest as Record<string, unknown>).MockLanguageModelV4 ??
  aiTest.MockLanguageModelV3) as typeof aiTest.MockLanguageModelV3;

/** A mock model, as the tests make it. */
export type MockModel = InstanceType<typeof MockLanguageModel>;

/** One part of a model's stream, as the mock takes it. */
export type StreamPart =
  Awaited<ReturnType<MockModel['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;
