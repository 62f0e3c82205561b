import { EVENT_BAGGAGE_KEY, HANDLER_BAGGAGE_KEY } from '@boardbot/core';
import { HandlerRun, namedKey, RunCalls, TRACE, writeKey } from '@boardbot/core/internal';
import { IDEMPOTENCY_KEY_PATTERN, silentLogger } from '@boardbot/protocol';
import { RestClient } from '@boardbot/rest';
import { type Context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';

const bot = new RestClient({ token: 'unused' });
const run = (id: string, handler = 'Echo.echo') =>
  new HandlerRun({
    event: { id, origin: 'live', keyBasis: id, replayed: false },
    handler,
    correlationId: 'corr-1',
    log: silentLogger,
  });

describe("a run's calls (its REST carrier)", () => {
  it('give the writes of a run keys derived from the event, the handler and their order', () => {
    const keysOf = (id: string, handler?: string) => {
      const calls = new RunCalls(run(id, handler), bot, false, undefined);
      return [calls.nextWriteKey(), calls.nextWriteKey()];
    };
    const first = keysOf('42');
    expect(first).toEqual([writeKey(run('42'), 0), writeKey(run('42'), 1)]);
    // Handled again after a restart: the same keys, so the platform replays instead of writing twice.
    expect(keysOf('42')).toEqual(first);
    expect(keysOf('43')).not.toEqual(first);
    expect(keysOf('42', 'Other.run')).not.toEqual(first);
    for (const k of first) expect(k).toMatch(new RegExp(IDEMPOTENCY_KEY_PATTERN));
  });

  it("carry the correlation id, logger, the run's signal and trace context, named in its baggage", () => {
    const one = run('1');
    const SPAN = Symbol('span');
    one.set(TRACE, ROOT_CONTEXT.setValue(SPAN, 'the handler span'));
    const options = new RunCalls(one, bot, false, undefined).options();
    expect(options).toMatchObject({ requestId: 'corr-1', logger: silentLogger, signal: one.signal });
    const baggage = propagation.getBaggage(options.traceContext as Context);
    expect(baggage?.getEntry(HANDLER_BAGGAGE_KEY)?.value).toBe(one.handler);
    expect(baggage?.getEntry(EVENT_BAGGAGE_KEY)?.value).toBe('1');
    // Made from the run's own trace context (its handler span), not the event's.
    expect((options.traceContext as Context).getValue(SPAN)).toBe('the handler span');
  });

  it("share the run's keys between the handler's voice and the runtime's, which has no signal", () => {
    const two = run('2');
    two.abandon(new Error('timed out'));
    const handler = new RunCalls(two, bot, false, undefined);
    const runtime = new RunCalls(two, bot, true, undefined);
    expect(handler.options().signal?.aborted).toBe(true);
    expect(handler.nextWriteKey()).toBe(writeKey(two, 0));
    expect(runtime.options().signal).toBeUndefined();
    expect(runtime.nextWriteKey()).toBe(writeKey(two, 1));
    expect([handler.runtime, runtime.runtime]).toEqual([false, true]);
  });

  it('names keys for outside effects stably, hashing names a header cannot carry', () => {
    const a = namedKey(run('9'), 'charge');
    expect(namedKey(run('9'), 'charge')).toBe(a);
    expect(namedKey(run('9'), 'refund')).not.toBe(a);
    expect(namedKey(run('9'), 'naïve name\n')).toMatch(new RegExp(IDEMPOTENCY_KEY_PATTERN));
  });
});
