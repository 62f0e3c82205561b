import type { BotEvent } from '../kernel/event.js';

/**
 * What the idempotency keys of an event's handler runs are derived from (`writeKey`, `namedKey` in
 * `kernel/scope.ts`). For a `message.create` it is the message id (`m.<id>`): the live event and the
 * same message read back by a backfill after a gap then give the same keys, so a message whose
 * handler wrote before a crash is not answered twice. For every other event it is the gateway event
 * id: interactions are never backfilled, and an edit or a deletion is one event among several of
 * the same message.
 *
 * @param event - the event being dispatched
 */
export function keyBasis(event: BotEvent): string {
  if (!event.unknown && event.name === 'message.create') return `m.${event.data.message.id}`;
  return event.id;
}
