import type { BotEvent, Dispatcher } from '../../dispatch/dispatcher.js';
import type { DispatchOutcome } from '../../dispatch/outcome.js';
import type { Telemetry } from '../../telemetry/telemetry.js';

/** What runs an event's handlers under its trace. */
export interface TracedDispatch {
  dispatcher: Dispatcher;
  telemetry: Telemetry;
}

/**
 * Runs an event's handlers inside its trace: the one place an event is counted as received, its span
 * started when its dispatch begins and ended when its handlers finished, whichever source fed it.
 * Never rejects (the dispatcher does not).
 *
 * @param parts - the dispatcher and the telemetry
 * @param event - the event
 * @param replayed - whether another process (or an earlier run) may have handled it already
 * @param carrier - the trace headers it came with from the replica that read it, if any
 */
export function dispatchTraced(
  parts: TracedDispatch,
  event: BotEvent,
  replayed: boolean,
  carrier?: Readonly<Record<string, string>>,
): Promise<DispatchOutcome> {
  const traced = parts.telemetry.receive(event, carrier);
  return parts.dispatcher.dispatch(event, replayed, traced.begin()).finally(() => traced.end());
}
