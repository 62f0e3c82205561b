import type { Dispatcher } from '../../dispatch/dispatcher.js';
import type { KeyedQueue } from '../../dispatch/keyed-queue.js';
import { type OrderBy, orderingKey } from '../../dispatch/ordering.js';
import type { BotEvent } from '../../kernel/event.js';
import { type DispatchOutcome, releasedOutcome } from '../../kernel/outcome.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import type { BackfillPlace } from '../intake/intake-sink.js';
import { dispatchTraced } from '../intake/traced-dispatch.js';

/** What an event handed to the bot went through: nothing ran. */
const NOTHING_RAN: DispatchOutcome = Object.freeze({ failed: false, abandoned: false });

/** What {@link deliverEvent} hands events to. */
export interface DeliverDeps {
  dispatcher: Dispatcher;
  queue: KeyedQueue;
  telemetry: Telemetry;
  orderBy: OrderBy;
  /** When this process started (epoch ms): a live event created before it is replayed. */
  startedAt: number;
}

/**
 * `SourceHost.deliver`: an event's trace starts at its receipt; an event no handler takes is traced
 * and done at once (the bot's own answers, most often), without waiting for its key's turn in the
 * queue; the others are queued under their ordering key and dispatched, and done once their
 * handlers and the work a burst held for them finished.
 * @param d - the bot's dispatcher, queue and telemetry, its ordering and start time
 */
export function deliverEvent(d: DeliverDeps): (event: BotEvent, place?: BackfillPlace) => Promise<DispatchOutcome> {
  return (event, place) => {
    const traced = d.telemetry.receive(event);
    if (!d.dispatcher.handles(event)) {
      traced.begin();
      traced.end();
      return Promise.resolve(NOTHING_RAN);
    }
    const replayed = place === undefined && createdBefore(event, d.startedAt);
    return new Promise<DispatchOutcome>((resolve) => {
      d.queue.push(orderingKey(event, d.orderBy), async () => {
        const outcome = await dispatchTraced(d.dispatcher, event, replayed, traced);
        // A burst holding the message frees its board's slot now, and is done once it ran; nothing
        // held (the usual case) is done now, without a promise more per event.
        if (outcome.held && outcome.held.length > 0) void releasedOutcome(outcome).then(resolve);
        else resolve(outcome);
      });
    });
  };
}

/** Whether the event's interaction or message was created before `time` (epoch ms). */
export function createdBefore(event: BotEvent, time: number): boolean {
  if (event.unknown) return false;
  const created =
    event.name === 'interaction.create'
      ? event.data.interaction.created_at
      : event.name === 'message.create'
        ? event.data.message.created_at
        : undefined;
  return created !== undefined && Date.parse(created) < time;
}
