import { HandlerTimeoutError, WriteDroppedError } from '@boardbot/core';
import { HandlerRun } from '@boardbot/core/internal';
import type { Logger } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

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

/** A live (not replayed) run of the handler `Slow.run` for event 42, logging to `log`. */
function slowRun(log: Logger): HandlerRun {
  return new HandlerRun({
    eventId: '42',
    keyBasis: '42',
    handler: 'Slow.run',
    correlationId: 'c',
    log,
    replayed: false,
  });
}

describe('HandlerRun.admitWrite', () => {
  it('lets writes go out until the run is abandoned, then refuses and logs each by name', () => {
    const { log, lines } = warnings();
    const run = slowRun(log);
    expect(() => run.admitWrite('reply')).not.toThrow();
    run.abandon(new HandlerTimeoutError('Slow.run', 50));
    expect(run.signal.aborted).toBe(true);
    const error = (() => {
      try {
        run.admitWrite('followUp');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(WriteDroppedError);
    expect(error).toMatchObject({ code: 'BOARDBOT_WRITE_DROPPED', handler: 'Slow.run', operation: 'followUp' });
    expect((error as Error).cause).toBe(run.signal.reason);
    expect(lines).toEqual([
      { fields: { handler: 'Slow.run', write: 'followUp' }, msg: expect.stringMatching(/^write dropped/) },
    ]);
  });

  it('admits the runtime answering for an abandoned run, not the handler writing at the same time', async () => {
    const { log } = warnings();
    const run = slowRun(log);
    let release: () => void = () => {};
    const handlerWaits = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The handler's own async flow, started before the runtime answers.
    const lateWrite = handlerWaits.then(() => run.admitWrite('reply'));
    run.abandon(new HandlerTimeoutError('Slow.run', 50));
    await run.answerAsRuntime(async () => {
      run.admitWrite('reply');
      release();
      await lateWrite.catch(() => {});
      run.admitWrite('send');
    });
    await expect(lateWrite).rejects.toBeInstanceOf(WriteDroppedError);
    expect(() => run.admitWrite('send')).toThrow(WriteDroppedError);
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
