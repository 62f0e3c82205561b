import { type MessageContext, OnMessage } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { until } from '@boardbot/test-support';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Deferred, deferred } from '../support.js';
import { type FedSource, fed } from './sources.js';

// docs/assistants.md, "Bursts: one answer for several messages": an assistant with burst 'collapse'
// streams its answer; what arrives while it streams is answered once, together, when it ends. The
// model's text is fed by the test; the bot runs on the harness's clock (no stream bound fires on its
// own) and edits without a throttle (the edits' pacing is streams.test.ts's, not what is under test).

/** What each run read: its message and its skipped ones, oldest first. */
const runs: { message: string; skipped: string[] }[] = [];
/** The model of each run, in order: the test feeds it the rest of the answer and ends it. */
const models: FedSource[] = [fed(), fed()];
/** The model of run `n` (from 0); a run the test did not expect gets one too, ended at the close. */
const modelOf = (n: number): FedSource => {
  const model = models[n] ?? fed();
  models[n] = model;
  return model;
};

class Assistant {
  @OnMessage(/^ask /, { burst: 'collapse' })
  async answer(ctx: MessageContext) {
    const asked = [...ctx.skipped, ctx.message].map((m) => m.content ?? '');
    runs.push({ message: ctx.message.content ?? '', skipped: asked.slice(0, -1) });
    const model = modelOf(runs.length - 1);
    model.push(`Read ${asked.join(' + ')}.`);
    await ctx.stream(model.source, { throttleMs: 0 });
  }
}

/** Who waits for a message to be taken: a held message is taken before its receipt runs. */
const receipts = new Map<string, Deferred>();
const receipt = (content: string): Deferred => {
  let entry = receipts.get(content);
  if (!entry) {
    entry = deferred();
    receipts.set(content, entry);
  }
  return entry;
};

/** Runs after the assistant for the same message (declared after it): the message was taken. */
class Receipts {
  @OnMessage()
  received(ctx: MessageContext) {
    receipt(ctx.message.content ?? '').resolve();
  }
}

describe('collapse with a streamed answer', () => {
  let platform: TestPlatform;
  let clock: TestClock;

  beforeAll(async () => {
    clock = new TestClock('2026-03-02T09:00:00Z');
    platform = await createTestPlatform({
      handlers: [Assistant, Receipts],
      clock,
      emulator: { now: () => clock.now() },
    });
  });
  afterAll(async () => {
    // A stream still open (a run the test did not expect) would hold the close.
    for (const model of models) model.end();
    await platform?.close();
  });

  /** The bot's reply to `to`, in its latest state. */
  const shown = (to: Message) => platform.bot.messages({ replyTo: to }).map((m) => m.content);

  it('three messages during a streaming run are one more run, with all three, that streams one answer', async () => {
    const alice = platform.person('alice');
    const first = await alice.say('ask 0');
    await until(() => shown(first)[0] === 'Read ask 0. ▍', 'the first answer to stream');

    // While it streams, three more messages arrive and are taken: held, not run.
    const during = [await alice.say('ask 1'), await alice.say('ask 2'), await alice.say('ask 3')];
    await receipt('ask 3').promise;
    expect(runs).toHaveLength(1);

    const [firstModel, secondModel] = models as [FedSource, FedSource];
    firstModel.push(' Answered.');
    firstModel.end();
    const firstAnswer = await platform.bot.nextAnswer({ replyTo: first }).final();
    expect(firstAnswer.text).toBe('Read ask 0. Answered.');

    // Once it ended: one run for all three, the newest as ctx.message, streaming its own answer.
    const last = during[2] as Message;
    await until(() => shown(last)[0] === 'Read ask 1 + ask 2 + ask 3. ▍', 'the second answer to stream');
    secondModel.push(' Answered together.');
    secondModel.end();
    const secondAnswer = await platform.bot.nextAnswer({ replyTo: last }).final();
    expect(secondAnswer.text).toBe('Read ask 1 + ask 2 + ask 3. Answered together.');

    await platform.settle();
    expect(runs).toEqual([
      { message: 'ask 0', skipped: [] },
      { message: 'ask 3', skipped: ['ask 1', 'ask 2'] },
    ]);
    // Exactly two answers, each one message in its final state; none for the messages read together.
    expect(platform.bot.messages().map((m) => m.content)).toEqual([firstAnswer.text, secondAnswer.text]);
    for (const m of during.slice(0, 2)) expect(shown(m)).toEqual([]);
  });
});
