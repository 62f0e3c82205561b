import type { BotRest } from '../kernel/ports.js';
import type { BroadcastBody } from './broadcast-options.js';

/**
 * How far the platform's clock may be behind the bot's: a message it dated this much before the bot
 * began the send still counts as that send's.
 */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Whether `boardId` already shows the broadcast's message, posted by the app since `since`: what a
 * broadcast asks of a board whose send a crashed process began so long ago that the platform may have
 * forgotten its idempotency key, so that sending again could post it twice. Reads the board's newest
 * messages back to `since`.
 *
 * @param rest - the bot's REST client
 * @param boardId - the board
 * @param body - the broadcast's message
 * @param since - when the send was begun (epoch ms)
 * @param botUserId - the user the app posts as
 * @param signal - stops the reading
 */
export async function sentBefore(
  rest: Pick<BotRest, 'iterateMessages'>,
  boardId: string,
  body: BroadcastBody,
  since: number,
  botUserId: string,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const embeds = body.embeds?.length ?? 0;
  for await (const message of rest.iterateMessages(boardId, {}, { signal })) {
    if (Date.parse(message.created_at) < since - CLOCK_SKEW_MS) return false;
    if (message.author !== botUserId || message.deleted_at !== null) continue;
    if ((message.content ?? undefined) === body.content && (message.embeds?.length ?? 0) === embeds) return true;
  }
  return false;
}
