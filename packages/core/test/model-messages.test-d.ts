import type { Thread, ThreadModelMessage } from '@boardbot/core';
import { toModelMessages } from '@boardbot/core';
import type { ModelMessage } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';

// toModelMessages() gives what the AI SDK's streamText({ messages }) takes, without core depending
// on `ai` (a devDependency, for this test only).

describe('toModelMessages', () => {
  it("returns the AI SDK's ModelMessage[]", () => {
    expectTypeOf<ThreadModelMessage>().toExtend<ModelMessage>();
    expectTypeOf(toModelMessages).parameter(0).toEqualTypeOf<Thread>();
    const messages: ModelMessage[] = toModelMessages({ kind: 'recent', messages: [] });
    expectTypeOf(messages).toEqualTypeOf<ModelMessage[]>();
  });
});
