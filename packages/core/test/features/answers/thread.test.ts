import { type MessageContext, OnMessage, type Thread, toModelMessages } from '@boardbot/core';
import { until } from '@boardbot/test-support';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/assistants.md, "Threads as model input": ctx.thread() and toModelMessages() on the emulator,
// with the bot's own answers, a webhook's post, an edit and a deletion.

const threads: Thread[] = [];
let gate: Promise<void> = Promise.resolve();

class Assistant {
  @OnMessage(/^Hello/)
  hello() {
    return 'Hi Alice';
  }

  @OnMessage('!thread')
  async thread(ctx: MessageContext) {
    // The test edits and deletes messages of the chain before the thread is read.
    await gate;
    threads.push(await ctx.thread());
  }

  @OnMessage('!recent')
  async recent(ctx: MessageContext) {
    threads.push(await ctx.thread({ limit: 3 }));
  }
}

describe('a thread as model input', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ handlers: [Assistant] });
  });
  afterAll(() => platform?.close());

  it("walks the reply chain: the bot's answers as the assistant's, people and webhooks named, edits shown, deletions left out", async () => {
    const alice = platform.person('alice');
    const bob = platform.person('bob');
    const general = await platform.board('general');
    const hello = await alice.say('Hello bot');
    const answer = await platform.bot.nextMessage({ replyTo: hello });
    const ci = await platform.control.postMessage(general.id, {
      webhook_name: 'CI',
      content: 'build passed',
      replyTo: answer.id,
    });
    await bob.say('noise, not in the chain');
    const typo = await alice.reply(ci, 'wht abut tests');
    const aside = await bob.reply(typo, 'an aside, deleted later');
    let release: () => void = () => {};
    gate = new Promise((resolve) => {
      release = resolve;
    });
    await alice.reply(aside, '!thread');
    await alice.edit(typo, 'what about tests?');
    await bob.delete(aside);
    release();
    await until(() => threads.length === 1, 'the thread read');

    const [thread] = threads.splice(0);
    expect(thread?.kind).toBe('replies');
    expect(toModelMessages(thread as Thread)).toEqual([
      { role: 'user', content: 'Alice: Hello bot' },
      { role: 'assistant', content: 'Hi Alice' },
      { role: 'user', content: 'CI: build passed' },
      { role: 'user', content: 'Alice: what about tests?' },
      { role: 'user', content: 'Alice: !thread' },
    ]);
  });

  it("reads the board's recent messages, up to the limit, for a message that replies to nothing", async () => {
    const bob = platform.person('bob');
    await bob.say('one');
    const gone = await bob.say('two, deleted');
    await bob.say('three');
    await bob.delete(gone);
    await platform.person('alice').say('!recent');
    await until(() => threads.length === 1, 'the thread read');
    const [thread] = threads.splice(0);
    expect(thread?.kind).toBe('recent');
    expect(toModelMessages(thread as Thread)).toEqual([
      { role: 'user', content: 'Bob: one' },
      { role: 'user', content: 'Bob: three' },
      { role: 'user', content: 'Alice: !recent' },
    ]);
  });
});
