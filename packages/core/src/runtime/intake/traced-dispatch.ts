import type { Dispatcher, DispatchOptions, Routed } from '../../dispatch/dispatcher.js';
import type { DispatchOutcome } from '../../kernel/outcome.js';

const NOTHING_RAN: DispatchOutcome = Object.freeze({ failed: false, abandoned: false });

import type { EventTrace } from '../../telemetry/telemetry.js';

/**
 * Runs what an event was routed to inside its trace, whichever source fed it: its span (dated from
 * its receipt, `Telemetry.receive`) starts when its dispatch begins and ends when its handlers
 * finished. Never rejects (the dispatcher does not).
 *
 * @param dispatcher - the bot's dispatcher
 * @param routed - what the kinds would run for the event; none: its trace begins and ends now
 * @param options - whether it is replayed, its origin and ownership
 * @param traced - the trace its receipt started
 */
export function dispatchTraced(
  dispatcher: Dispatcher,
  routed: Routed | undefined,
  options: Omit<DispatchOptions, 'trace'>,
  traced: EventTrace,
): Promise<DispatchOutcome> {
  const trace = traced.begin();
  if (routed === undefined) {
    traced.end();
    return Promise.resolve(NOTHING_RAN);
  }
  const dispatched = dispatcher.handle(routed, trace === undefined ? options : { ...options, trace });
  // An untraced event has no span to end: no promise more per event for it. A traced one ends its
  // span in a plain `then` (the dispatcher never rejects): `finally` would cost two promises more.
  if (trace === undefined) return dispatched;
  return dispatched.then((outcome) => {
    traced.end();
    return outcome;
  });
}
