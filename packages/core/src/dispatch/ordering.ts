import type { Interaction, Message } from '@boardbot/protocol';
import type { BotEvent } from './dispatcher.js';

/**
 * Which events a bot handles one at a time, in the order they arrived:
 * - `'board'`: the events of one board (the default): a conversation is answered in order, boards in
 *   parallel; a slow handler holds its board.
 * - `'user'`: the events of one person on one board: people on a busy board do not wait for each
 *   other, but one person's messages may be handled while an earlier message of another is.
 * - `'none'`: every event as soon as a worker is free; nothing waits, nothing is ordered (not even
 *   the edit of a message after its creation).
 */
export type OrderBy = 'board' | 'user' | 'none';

/**
 * The ordering key of an event: events with the same key run one after the other; undefined keys
 * (events of no board, such as `ready`, or every event with `'none'`) run as soon as they can.
 *
 * @param event - the gateway event
 * @param by - the bot's ordering
 */
export function orderingKey(event: BotEvent, by: OrderBy): string | undefined {
  if (by === 'none') return undefined;
  const data = event.data as { message?: Message; interaction?: Interaction } | null;
  const message = data?.message;
  const interaction = data?.interaction;
  const board = message?.board_id ?? interaction?.board_id;
  if (board === undefined) return undefined;
  if (by === 'board') return board;
  const who = interaction ? interaction.user.id : (message?.author ?? `webhook:${message?.webhook_name ?? ''}`);
  return `${board}:${who}`;
}
