import {
  ContextBase,
  type ContextDeps,
  HandlerTimeoutError,
  RunKey,
  Services,
  WriteDroppedError,
} from '@boardbot/core';
import { HandlerRun, writeKey } from '@boardbot/core/internal';
import type { App, Logger } from '@boardbot/protocol';
import { RestClient } from '@boardbot/rest';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/kernel/clock.js';

/** A logger that keeps its warnings. */
function warnings() {
  const lines: { fields: object; msg: string | undefined }[] = [];
  const noop = () => {};
  const log: Logger = {
    trace: noop,
    debug: noop,
    info: noop,
    error: noop,
    warn: (fields: object | string, msg?: string) => {
      lines.push(typeof fields === 'string' ? { fields: {}, msg: fields } : { fields, msg });
    },
    child: () => log,
  };
  return { log, lines };
}

/** A live run of the handler `Slow.run` for event 42, logging to `log`. */
function slowRun(log: Logger): HandlerRun {
  return new HandlerRun({
    event: { id: '42', origin: 'live', keyBasis: '42', replayed: false },
    handler: 'Slow.run',
    correlationId: 'c',
    log,
  });
}

/** The smallest context: one write, counted. */
class Writing extends ContextBase {
  sent = 0;
  async send(): Promise<number> {
    return this.write('send', async () => ++this.sent);
  }
}

const rest = new RestClient({ token: 'unused' });
const handlerVoice = { rest, runtime: false };
const runtimeVoice = { rest, runtime: true };
const deps = (run: HandlerRun): ContextDeps => ({
  app: { id: 'app' } as App,
  run,
  voice: handlerVoice,
  clock: systemClock,
  services: new Services(),
});

describe("a handler run's writes", () => {
  it('go out until the run is abandoned; then each is refused and logged by name', async () => {
    const { log, lines } = warnings();
    const run = slowRun(log);
    const ctx = new Writing(deps(run));
    await expect(ctx.send()).resolves.toBe(1);
    run.abandon(new HandlerTimeoutError('Slow.run', 50));
    expect(run.signal.aborted).toBe(true);
    const error = await ctx.send().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriteDroppedError);
    expect(error).toMatchObject({ code: 'BOARDBOT_WRITE_DROPPED', handler: 'Slow.run', operation: 'send' });
    expect((error as Error).cause).toBe(run.signal.reason);
    expect(lines).toEqual([
      { fields: { handler: 'Slow.run', write: 'send' }, msg: expect.stringMatching(/^write dropped/) },
    ]);
  });

  it("go out through the runtime's view of an abandoned run's context, while the handler's own are refused", async () => {
    const run = slowRun(warnings().log);
    const ctx = new Writing(deps(run));
    run.abandon(new HandlerTimeoutError('Slow.run', 50));
    const spoken = ContextBase.spokenBy(ctx, runtimeVoice);
    // The view is the same context: what the handler did shows through it.
    expect(spoken.sent).toBe(0);
    await expect(spoken.send()).resolves.toBe(1);
    await expect(ctx.send()).rejects.toBeInstanceOf(WriteDroppedError);
  });
});

describe("a handler run's keys", () => {
  it('give each write the next key of its event and handler, in order', () => {
    const run = slowRun(warnings().log);
    expect([run.nextWriteKey(), run.nextWriteKey()]).toEqual([writeKey(run, 0), writeKey(run, 1)]);
    expect(slowRun(warnings().log).nextWriteKey()).toBe(writeKey(run, 0));
  });

  it("keep each feature's state under its own key", () => {
    const run = slowRun(warnings().log);
    const LOCALE = new RunKey<string>('locale');
    const TRIES = new RunKey<number>('tries');
    expect(run.get(LOCALE)).toBeUndefined();
    run.set(TRIES, 3);
    run.set(LOCALE, 'fr');
    expect([run.get(LOCALE), run.get(TRIES)]).toEqual(['fr', 3]);
    expect(slowRun(warnings().log).get(LOCALE)).toBeUndefined();
  });
});

describe('HandlerRun.signal', () => {
  // The signal is made at its first read: one read before the abandonment must abort as one read after.
  it('is aborted with the abandonment reason, whether first read before or after it', () => {
    const early = slowRun(warnings().log);
    const before = early.signal;
    const earlyReason = new HandlerTimeoutError('Slow.run', 50);
    early.abandon(earlyReason);
    expect(before.aborted).toBe(true);
    expect(before.reason).toBe(earlyReason);
    expect(early.signal).toBe(before);

    const late = slowRun(warnings().log);
    const lateReason = new HandlerTimeoutError('Slow.run', 50);
    late.abandon(lateReason);
    late.abandon(new HandlerTimeoutError('Slow.run', 99));
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe(lateReason);
    expect(late.abandoned).toBe(true);
    expect(slowRun(warnings().log).abandoned).toBe(false);
  });
});
