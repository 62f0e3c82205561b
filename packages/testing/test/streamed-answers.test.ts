import { Command, type CommandContext, type MessageContext, OnMessage } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/assistants.md, "Testing offline": the harness waits for a streamed answer's final text.

/** A model's answer in three pieces. */
async function* pieces(): AsyncGenerator<string> {
  yield 'one, ';
  yield 'two, ';
  yield 'three.';
}

class Streamer {
  @OnMessage('!count')
  count(ctx: MessageContext) {
    return ctx.stream(pieces(), { throttleMs: 5 });
  }
}

@Command({ name: 'count', description: 'Counts to three' })
class Count {
  run(ctx: CommandContext) {
    return ctx.stream(pieces(), { throttleMs: 5 });
  }
}

describe('nextAnswer().final()', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ handlers: [Streamer, Count] });
  });
  afterAll(() => platform?.close());

  it("resolves with a streamed reply's final text and its edits", async () => {
    const asked = await platform.person('alice').say('!count');
    const answer = await platform.bot.nextAnswer({ replyTo: asked }).final();
    expect(answer.text).toBe('one, two, three.');
    expect(answer.parts).toHaveLength(1);
    expect(answer.edits.at(-1)?.content).toBe('one, two, three.');
    expect(answer.edits.slice(0, -1).every((e) => e.content?.endsWith(' ▍'))).toBe(true);
  });

  it("resolves with a command's streamed answer", async () => {
    const interaction = await platform.person('alice').start('count');
    const answer = await platform.bot.nextAnswer({ interaction }).final();
    expect(answer.text).toBe('one, two, three.');
  });
});
