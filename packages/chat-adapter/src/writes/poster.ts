import type { Message as BoardMessage } from '@boardbot/protocol';
import { ApiError, type RestClient } from '@boardbot/rest';
import type { RawMessage } from 'chat';
import type { MessageIndex } from '../history/message-index.js';
import { currentEvent, nextPostKey } from '../intake/event-scope.js';
import { decodeThreadId, encodeThreadId } from '../thread-id.js';

// CONTRACT: a token takes five answers; past them, or past its 15 minutes, it is refused with 410.
const ANSWERS_PER_TOKEN = 5;
const SPENT = new Set(['interaction_exhausted', 'interaction_expired']);

/**
 * The adapter's writes. A post to a thread replies to the message being handled when it is in that
 * thread, else to the thread's first message; a post to a board (a channel) starts a thread, or, in
 * a slash command's handler, answers the interaction. Each post of an event carries the event's next
 * key; edits and deletes need none (doing one twice changes nothing).
 */
export class Poster {
  /**
   * @param rest - the REST client (its queue keeps every call inside the rate limit)
   * @param index - records each posted message's thread
   */
  constructor(
    private readonly rest: RestClient,
    private readonly index: MessageIndex,
  ) {}

  /**
   * Posts `content` into a thread or a board.
   * @param threadId - a thread or channel id
   * @param content - the rendered content
   * @param key - the post's idempotency key; by default the event's next
   */
  async post(threadId: string, content: string, key = nextPostKey()): Promise<RawMessage<BoardMessage>> {
    const { boardId, rootId } = decodeThreadId(threadId);
    const o = key === undefined ? {} : { idempotencyKey: key };
    const m =
      rootId === undefined
        ? ((await this.answer(threadId, content, key)) ?? (await this.rest.sendMessage(boardId, { content }, o)))
        : await this.rest.sendMessage(boardId, { content, replyTo: this.replyTarget(threadId, rootId) }, o);
    const root = rootId ?? m.id;
    await this.index.record(m, root);
    return { id: m.id, threadId: encodeThreadId({ boardId, rootId: root }), raw: m };
  }

  /**
   * Edits the bot's message.
   * @param threadId - its thread
   * @param messageId - the message
   * @param content - the new content
   */
  async edit(threadId: string, messageId: string, content: string): Promise<RawMessage<BoardMessage>> {
    const { boardId } = decodeThreadId(threadId);
    const m = await this.rest.editMessage(boardId, messageId, { content });
    return { id: m.id, threadId, raw: m };
  }

  /** Deletes the bot's message. @param threadId - its thread @param messageId - the message */
  async delete(threadId: string, messageId: string): Promise<void> {
    await this.rest.deleteMessage(decodeThreadId(threadId).boardId, messageId);
  }

  private replyTarget(threadId: string, rootId: string): string {
    const handled = currentEvent()?.message;
    return handled?.threadId === threadId ? handled.id : rootId;
  }

  // The interaction's answer when the post goes to its board in its handler, while the token lasts.
  private async answer(channelId: string, content: string, key: string | undefined): Promise<BoardMessage | undefined> {
    const interaction = currentEvent()?.interaction;
    if (interaction?.channelId !== channelId || interaction.answers >= ANSWERS_PER_TOKEN) return undefined;
    interaction.answers++;
    try {
      return await this.rest.answerInteraction(
        interaction.token,
        { content },
        key === undefined ? {} : { idempotencyKey: key },
      );
    } catch (error) {
      if (!(error instanceof ApiError && SPENT.has(error.apiCode))) throw error;
      interaction.answers = ANSWERS_PER_TOKEN;
      return undefined;
    }
  }
}
