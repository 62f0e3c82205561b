import type { Message } from '@boardbot/protocol';
import { eventuallyValue } from '@boardbot/test-support';
import type { SeededEmulator } from '@boardbot/test-support/emulator';

/**
 * The bot's messages on a board, oldest first, read through the control API (no rate limit).
 * @param emulator - the platform
 * @param boardId - the board
 */
export async function botMessagesOn(emulator: SeededEmulator, boardId: string): Promise<Message[]> {
  const all = await emulator.allMessages(boardId);
  return all.filter((m) => m.author === emulator.seed.devBot.bot_user_id).reverse();
}

/**
 * Waits for the bot's replies to one message, and resolves with them once there are `count`.
 * @param emulator - the platform
 * @param m - the message replied to
 * @param count - how many replies to wait for
 */
export function repliesTo(emulator: SeededEmulator, m: Message, count = 1): Promise<Message[]> {
  return eventuallyValue(
    async () => (await botMessagesOn(emulator, m.board_id)).filter((r) => r.reply_to === m.id),
    (replies) => replies.length >= count,
  );
}
