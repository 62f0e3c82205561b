import { EVENT_BAGGAGE_KEY, HANDLER_BAGGAGE_KEY } from '@boardbot/core';
import { HandlerRun, namedKey, writeKey } from '@boardbot/core/internal';
import { IDEMPOTENCY_KEY_PATTERN, silentLogger } from '@boardbot/protocol';
import { currentCallScope } from '@boardbot/rest';
import { type Context, propagation } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';

const seed = (eventId: string, handler = 'Echo.echo') => ({
  eventId,
  keyBasis: eventId,
  handler,
  correlationId: 'corr-1',
  log: silentLogger,
  replayed: false,
});

describe('handler scope', () => {
  // What a REST call made in the run's flow carries, as @boardbot/rest reads it.
  const call = (write: boolean) => {
    const scope = currentCallScope();
    if (!scope) return undefined;
    return write ? { ...scope.options, idempotencyKey: `${scope.keys.prefix}${scope.keys.next++}` } : scope.options;
  };

  it('gives the writes of a run keys derived from the event, the handler and their order', async () => {
    const keysOf = (eventId: string, handler?: string) =>
      new HandlerRun(seed(eventId, handler)).enter(async () => {
        const keys: (string | undefined)[] = [];
        for (const write of [true, false, true]) {
          await Promise.resolve();
          keys.push((call(write) as { idempotencyKey?: string } | undefined)?.idempotencyKey);
        }
        return keys;
      });
    const first = await keysOf('42');
    expect(first).toEqual([writeKey(seed('42'), 0), undefined, writeKey(seed('42'), 1)]);
    // Handled again after a restart: the same keys, so the platform replays instead of writing twice.
    expect(await keysOf('42')).toEqual(first);
    expect(await keysOf('43')).not.toEqual(first);
    expect(await keysOf('42', 'Other.run')).not.toEqual(first);
    const pattern = new RegExp(IDEMPOTENCY_KEY_PATTERN);
    for (const k of first) if (k !== undefined) expect(k).toMatch(pattern);
  });

  it("carries the correlation id, logger, the run's signal and trace context, and nothing outside a run", () => {
    expect(call(true)).toBeUndefined();
    const run = new HandlerRun(seed('1'));
    const options = run.enter(() => call(false));
    expect(options).toEqual({
      requestId: 'corr-1',
      logger: silentLogger,
      signal: run.signal,
      traceContext: run.callTraceContext(),
    });
    // The trace context names the handler and its event in the baggage its REST calls send.
    const baggage = propagation.getBaggage(options?.traceContext as Context);
    expect(baggage?.getEntry(HANDLER_BAGGAGE_KEY)?.value).toBe(run.handler);
    expect(baggage?.getEntry(EVENT_BAGGAGE_KEY)?.value).toBe('1');
  });

  it("aborts ctx.rest's calls once the run was abandoned (its signal), but not the runtime answering for it", async () => {
    const run = new HandlerRun(seed('2'));
    run.abandon(new Error('timed out'));
    expect(run.enter(() => call(true))?.signal?.aborted).toBe(true);
    const runtime = await run.answerAsRuntime(async () => call(true));
    expect(runtime).toMatchObject({ idempotencyKey: writeKey(seed('2'), 1) });
    expect(runtime?.signal).toBeUndefined();
  });

  it('names keys for outside effects stably, hashing names a header cannot carry', () => {
    const a = namedKey(seed('9'), 'charge');
    expect(namedKey(seed('9'), 'charge')).toBe(a);
    expect(namedKey(seed('9'), 'refund')).not.toBe(a);
    expect(namedKey(seed('9'), 'naïve name\n')).toMatch(new RegExp(IDEMPOTENCY_KEY_PATTERN));
  });
});
