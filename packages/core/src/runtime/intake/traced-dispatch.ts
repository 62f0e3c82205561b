import type { Dispatcher } from '../../dispatch/dispatcher.js';
import type { BotEvent } from '../../kernel/event.js';
import type { DispatchOutcome } from '../../kernel/outcome.js';
import type { EventTrace } from '../../telemetry/telemetry.js';

/**
 * Runs an event's handlers inside its trace, whichever source fed it: its span (dated from its
 * receipt, `Telemetry.receive`) starts when its dispatch begins and ends when its handlers finished.
 * Never rejects (the dispatcher does not).
 *
 * @param dispatcher - the bot's dispatcher
 * @param event - the event
 * @param replayed - whether another process (or an earlier run) may have handled it already
 * @param traced - the trace its receipt started
 * @param owned - whether this process still owns the event (a replica's partition lease)
 */
export function dispatchTraced(
  dispatcher: Dispatcher,
  event: BotEvent,
  replayed: boolean,
  traced: EventTrace,
  owned?: () => boolean,
): Promise<DispatchOutcome> {
  const trace = traced.begin();
  const dispatched = dispatcher.dispatch(event, replayed, trace, owned);
  // An untraced event has no span to end: no promise more per event for it. A traced one ends its
  // span in a plain `then` (the dispatcher never rejects): `finally` would cost two promises more.
  if (trace === undefined) return dispatched;
  return dispatched.then((outcome) => {
    traced.end();
    return outcome;
  });
}
