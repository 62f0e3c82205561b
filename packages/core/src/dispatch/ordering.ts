import type { BotEvent } from '../kernel/event.js';

/**
 * Which events a bot handles one at a time, in the order they arrived:
 * - `'board'`: the events of one board (the default): a conversation is answered in order, boards in
 *   parallel; a slow handler holds its board.
 * - `'user'`: the events of one person on one board: people on a busy board do not wait for each
 *   other, but one person's messages may be handled while an earlier message of another is.
 * - `'none'`: every event as soon as a worker is free; nothing waits, nothing is ordered, except the
 *   events of one message (its creation, edits and deletion), so that an editable answer's re-run
 *   finds the answers its message's earlier run linked.
 */
export type OrderBy = 'board' | 'user' | 'none';

/**
 * The ordering key of an event: events with the same key run one after the other; undefined keys
 * (events of no board, such as `ready`, events whose name this version does not know, or every event
 * but a message's with `'none'`) run as soon as they can.
 *
 * @param event - the gateway event
 * @param by - the bot's ordering
 */
export function orderingKey(event: BotEvent, by: OrderBy): string | undefined {
  if (event.unknown) return undefined;
  switch (event.name) {
    case 'interaction.create': {
      const { board_id, user } = event.data.interaction;
      if (by === 'none') return undefined;
      return by === 'board' ? board_id : `${board_id}:${user.id}`;
    }
    case 'message.create':
    case 'message.edit':
    case 'message.delete': {
      const { board_id, author, webhook_name, id } = event.data.message;
      // With `'none'`, the events of one message share a key; other events have none.
      if (by === 'none') return `${board_id}:message:${id}`;
      return by === 'board' ? board_id : `${board_id}:${author ?? `webhook:${webhook_name ?? ''}`}`;
    }
    default:
      return undefined;
  }
}
