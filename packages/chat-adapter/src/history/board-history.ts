import type { Message as BoardMessage } from '@boardbot/protocol';
import { type RestClient, scanChannel, scanThread } from '@boardbot/rest';
import type { ChannelInfo, FetchOptions, FetchResult, ThreadInfo } from 'chat';
import type { People } from '../people.js';
import type { BoardFormatConverter } from '../render.js';
import { channelIdOf, decodeThreadId, encodeThreadId } from '../thread-id.js';
import { toChatMessage } from '../to-chat-message.js';
import { type Page, pageOf } from './page-of.js';

/**
 * The adapter's reads: threads and boards as Chat SDK pages them (the history `toAiMessages` reads),
 * found by a bounded scan of the board, since the platform lists a board's messages and not a
 * thread's; boards as channels.
 */
export class BoardHistory {
  /**
   * @param rest - lists messages, reads boards
   * @param people - the messages' authors
   * @param format - parses their content
   * @param maxScan - most messages one read scans
   */
  constructor(
    private readonly rest: RestClient,
    private readonly people: People,
    private readonly format: BoardFormatConverter,
    private readonly maxScan: number,
  ) {}

  /**
   * A thread's messages (a channel id reads the board's top-level messages).
   * @param threadId - the thread
   * @param options - Chat's paging
   */
  async messages(threadId: string, options?: FetchOptions): Promise<FetchResult<BoardMessage>> {
    const { boardId, rootId } = decodeThreadId(threadId);
    if (rootId === undefined) return this.channelMessages(threadId, options);
    const all = await scanThread(this.rest, boardId, rootId, this.maxScan);
    return this.resultOf(pageOf(all, options), () => threadId);
  }

  /**
   * A board's top-level messages: each starts its own thread.
   * @param channelId - the board's channel id
   * @param options - Chat's paging
   */
  async channelMessages(channelId: string, options?: FetchOptions): Promise<FetchResult<BoardMessage>> {
    const { boardId } = decodeThreadId(channelId);
    const all = await scanChannel(this.rest, boardId, this.maxScan);
    return this.resultOf(pageOf(all, options), (m) => encodeThreadId({ boardId, rootId: m.id }));
  }

  /** A thread's board. @param threadId - the thread */
  async thread(threadId: string): Promise<ThreadInfo> {
    const board = await this.rest.getBoard(decodeThreadId(threadId).boardId);
    return { id: threadId, channelId: channelIdOf(threadId), channelName: board.name, isDM: false, metadata: {} };
  }

  /** A board as a channel. @param channelId - the board's channel id */
  async channel(channelId: string): Promise<ChannelInfo> {
    const board = await this.rest.getBoard(decodeThreadId(channelId).boardId);
    return {
      id: encodeThreadId({ boardId: board.id }),
      name: board.name,
      isDM: false,
      memberCount: board.member_count,
      metadata: { description: board.description },
    };
  }

  private async resultOf(page: Page, threadOf: (m: BoardMessage) => string): Promise<FetchResult<BoardMessage>> {
    const messages = await Promise.all(
      page.messages.map(async (m) =>
        toChatMessage(m, { threadId: threadOf(m), author: await this.people.authorOf(m) }, this.format),
      ),
    );
    return page.nextCursor === undefined ? { messages } : { messages, nextCursor: page.nextCursor };
  }
}
