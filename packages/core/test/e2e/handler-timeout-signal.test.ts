import { setTimeout as wait } from 'node:timers/promises';
import { Command, type CommandContext, HandlerTimeoutError } from '@boardbot/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

// The handler timeout aborts `ctx.signal` with BOARDBOT_HANDLER_TIMEOUT, so work that honours the
// signal stops there, and whatever the handler writes after it is dropped: the person gets the
// timeout's apology and nothing after it. (The unit tests prove the abort; this proves it against a
// real emulator, with the apology and the dropped write on the wire.)

const APOLOGY = 'Sorry, something went wrong while handling that. It has been logged.';

/** What the handler saw once its slow work ended: how it ended, the signal's reason, its late write. */
interface Seen {
  ended: unknown;
  reason: unknown;
  lateReply: string;
}

let report: (seen: Seen) => void = () => {};
const seen = new Promise<Seen>((resolve) => {
  report = resolve;
});

@Command({ name: 'patient', description: 'Waits on slow work that honours its signal' })
class Patient {
  async run(ctx: CommandContext) {
    // Slow work that takes the signal (a fetch, a query...): far longer than the handler timeout.
    const ended = await wait(10 * 60_000, 'finished', { signal: ctx.signal }).catch((error: unknown) => error);
    const lateReply = await ctx.reply('late reply').then(
      () => 'sent',
      (error: { code?: string }) => error.code ?? String(error),
    );
    report({ ended, reason: ctx.signal.reason, lateReply });
  }
}

describe('a handler that honours ctx.signal, past its timeout', () => {
  let platform: Platform;
  let started: ReturnType<Platform['bot']>;

  beforeAll(async () => {
    platform = await TestPlatform.start();
    started = platform.bot({ handlers: [Patient], handlerTimeoutMs: 200 });
    await started.bot.start();
  });

  afterAll(async () => {
    await started?.bot.stop();
    await platform?.close();
  });

  it('is aborted with BOARDBOT_HANDLER_TIMEOUT; its late reply is dropped and logged, after the apology', async () => {
    const interaction = await platform.invoke(platform.alice, platform.general, 'patient');
    const first = await platform.answers(interaction.id, 1);
    expect(first.answers.map((m) => m.content)).toEqual([APOLOGY]);

    // The ten-minute wait ended because the signal was aborted, with the timeout as its reason.
    const { ended, reason, lateReply } = await seen;
    expect(ended).toMatchObject({ name: 'AbortError' });
    expect((ended as Error).cause).toBe(reason);
    expect(reason).toBeInstanceOf(HandlerTimeoutError);
    expect(reason).toMatchObject({ code: 'BOARDBOT_HANDLER_TIMEOUT' });
    expect(lateReply).toBe('BOARDBOT_WRITE_DROPPED');

    const dropped = started.logs
      .lines()
      .filter((l) => l.msg === 'write dropped: the handler was abandoned (timeout or shutdown)');
    expect(dropped).toEqual([
      expect.objectContaining({ handler: 'Patient.run', write: 'reply', interaction_id: interaction.id }),
    ]);
    // Nothing but the apology reached the interaction.
    const after = await platform.answers(interaction.id, 2, 0);
    expect(after.answers.map((m) => m.content)).toEqual([APOLOGY]);
  });
});
