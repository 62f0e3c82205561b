import type { Thread, ThreadModelMessage } from '@boardbot/core';
import { toModelMessages } from '@boardbot/core';
import type { ModelMessage } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';

// toModelMessages() gives what the AI SDK's streamText({ messages }) takes, without core depending
// on `ai` (an optional peer, `^6 || ^7`; a devDependency for this test). vitest checks it against the
// repository's ai 6; test/docs/code-samples.test.ts compiles it against ai 7 on Node 22 and later.

describe('toModelMessages', () => {
  it("returns the AI SDK's ModelMessage[]", () => {
    expectTypeOf<ThreadModelMessage>().toExtend<ModelMessage>();
    expectTypeOf(toModelMessages).parameter(0).toEqualTypeOf<Thread>();
    const messages: ModelMessage[] = toModelMessages({ kind: 'recent', messages: [] });
    expectTypeOf(messages).toEqualTypeOf<ModelMessage[]>();
  });
});
