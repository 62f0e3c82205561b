import type { Message } from '@boardbot/protocol';

/**
 * The bot's messages among `messages`, in their order.
 * @param messages - a board's messages, oldest first
 * @param botUserId - the app's bot user
 */
export function botMessages(messages: readonly Message[], botUserId: string): Message[] {
  return messages.filter((m) => m.author === botUserId);
}

/** What people posted on one board: the messages and the interactions the bot must answer. */
export interface Posted {
  messages: Message[];
  /** Interaction ids. */
  interactions: string[];
}

/**
 * What the bot has not answered yet: each posted message without a reply to it, each interaction
 * without an answer, named by board. The exactly-once tests wait for it to be empty.
 *
 * @param posted - per board
 * @param messagesOf - reads a board's messages, oldest first
 * @param botUserId - the app's bot user
 */
export async function unanswered(
  posted: ReadonlyMap<string, Posted>,
  messagesOf: (board: string) => Promise<readonly Message[]>,
  botUserId: string,
): Promise<string[]> {
  const missing: string[] = [];
  for (const [board, mine] of posted) {
    const answered = new Set(
      botMessages(await messagesOf(board), botUserId).map((m) => m.reply_to ?? m.interaction?.id),
    );
    for (const m of mine.messages) if (!answered.has(m.id)) missing.push(`${board} message seq ${m.seq}`);
    for (const id of mine.interactions) if (!answered.has(id)) missing.push(`${board} interaction ${id}`);
  }
  return missing;
}
