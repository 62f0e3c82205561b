import { type Context, propagation } from '@opentelemetry/api';

/** The baggage key that names the handler on each REST call it makes (the emulator shows it). */
export const HANDLER_BAGGAGE_KEY = 'boardbot.handler';

/** The baggage key that names the gateway event a handler runs for on each REST call it makes. */
export const EVENT_BAGGAGE_KEY = 'boardbot.event_id';

/**
 * A handler run's trace context with the handler and its event named in the W3C baggage, which its
 * REST calls send: the platform (the emulator's "why") learns who made each call, never guessing.
 * @param context - the run's trace context
 * @param handler - `Class.method`
 * @param eventId - the gateway event id
 */
export function withRunBaggage(context: Context, handler: string, eventId: string): Context {
  const baggage = (propagation.getBaggage(context) ?? propagation.createBaggage())
    .setEntry(HANDLER_BAGGAGE_KEY, { value: handler })
    .setEntry(EVENT_BAGGAGE_KEY, { value: eventId });
  return propagation.setBaggage(context, baggage);
}
