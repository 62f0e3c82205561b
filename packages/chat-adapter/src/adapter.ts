import type { Message as BoardMessage } from '@boardbot/protocol';
import { RestClient } from '@boardbot/rest';
import type {
  Adapter,
  AdapterPostableMessage,
  ChannelInfo,
  ChatInstance,
  EmojiValue,
  FetchOptions,
  FetchResult,
  FormattedContent,
  Message,
  ModalElement,
  RawMessage,
  StreamChunk,
  StreamOptions,
  ThreadInfo,
  UserInfo,
} from 'chat';
import { type Connected, connect } from './connect.js';
import { AdapterNotInitializedError, notSupported } from './errors.js';
import type { ResolvedBoardAdapterOptions } from './options.js';
import { BoardFormatConverter } from './render.js';
import { ADAPTER_NAME, type BoardThreadId, channelIdOf, decodeThreadId, encodeThreadId } from './thread-id.js';
import { toChatMessage } from './to-chat-message.js';
import { streamThroughEdits } from './writes/edit-stream.js';

/**
 * Chat SDK's adapter for the board platform. It runs long-lived: `chat.initialize()` connects it to
 * the platform's event stream, which drives Chat's message processing in place of webhooks, and
 * `chat.shutdown()` closes the stream once the events handed to Chat have settled. A board is a
 * channel, a reply chain a thread; writes go through boardbot's REST client (inside the rate limit,
 * posts keyed by the event being handled).
 */
export class BoardAdapter implements Adapter<BoardThreadId, BoardMessage> {
  /** The adapter's name: the first part of its thread ids. */
  readonly name = ADAPTER_NAME;
  private readonly format = new BoardFormatConverter();
  private readonly rest: RestClient;
  private parts: Connected | undefined;

  /** @param options - resolved options (`createBoardAdapter` resolves them) */
  constructor(private readonly options: ResolvedBoardAdapterOptions) {
    this.rest = options.rest ?? new RestClient({ token: options.token, baseUrl: options.baseUrl });
  }

  /** The bot's username on the platform (what `@<username>` mentions), known once initialized. */
  get userName(): string {
    return this.parts?.me.userName ?? '';
  }

  /** The bot's user id on the platform, known once initialized (empty before). */
  get botUserId(): string {
    return this.parts?.me.id ?? '';
  }

  /**
   * Connects to the platform and opens its event stream, which then drives Chat (see `connect`).
   * @param chat - the Chat instance
   */
  async initialize(chat: ChatInstance): Promise<void> {
    this.parts = await connect({ chat, adapter: this, rest: this.rest, format: this.format, options: this.options });
  }

  /** Closes the event stream, waits for the events handed to Chat, then closes its own REST client. */
  async disconnect(): Promise<void> {
    const parts = this.parts;
    this.parts = undefined;
    if (parts) {
      await parts.gateway.close();
      await parts.intake.stopped();
    }
    if (this.options.rest === undefined) await this.rest.close();
  }

  /**
   * Not used: events arrive on the platform's stream, which `chat.initialize()` opens. Answers 404 in
   * the contract's error envelope, so a webhook pointed here by mistake fails visibly.
   */
  async handleWebhook(_request: Request): Promise<Response> {
    const message =
      'The board adapter receives events from the platform’s event stream (opened by chat.initialize()), not from webhooks.';
    return Response.json({ error: { code: 'not_found', message } }, { status: 404 });
  }

  /** A thread's (or, without `rootId`, a board's) id. @param data - the board and the thread's first message */
  encodeThreadId(data: BoardThreadId): string {
    return encodeThreadId(data);
  }

  /** The board and thread an id names. @param threadId - an id this adapter made */
  decodeThreadId(threadId: string): BoardThreadId {
    return decodeThreadId(threadId);
  }

  /** The board (channel) of a thread. @param threadId - a thread id */
  channelIdFromThreadId(threadId: string): string {
    return channelIdOf(threadId);
  }

  /** Boards have no direct messages. */
  isDM(): boolean {
    return false;
  }

  /**
   * A platform message as Chat's `Message`, from what is known without a read: its thread when the
   * index has seen its parent (else its parent's own), its author when seen before.
   * @param raw - the platform's message
   */
  parseMessage(raw: BoardMessage): Message<BoardMessage> {
    const known = raw.reply_to === null ? undefined : this.parts?.index.known(raw.reply_to);
    const rootId = raw.reply_to === null ? raw.id : (known?.root ?? raw.reply_to);
    const author = this.connected('parseMessage').people.knownAuthor(raw.author);
    return toChatMessage(raw, { threadId: encodeThreadId({ boardId: raw.board_id, rootId }), author }, this.format);
  }

  /** Chat's formatted content as the board's Markdown. @param content - Chat's formatted content */
  renderFormatted(content: FormattedContent): string {
    return this.format.fromAst(content);
  }

  /**
   * Posts into a thread (a reply) or a board (a new thread; a slash command's answer in its handler).
   * @param threadId - a thread or channel id
   * @param message - what to post
   */
  postMessage(threadId: string, message: AdapterPostableMessage): Promise<RawMessage<BoardMessage>> {
    const content = this.format.renderPostable(message);
    return this.connected('postMessage').poster.post(threadId, content);
  }

  /**
   * Posts at the top of a board: starts a thread, or answers the slash command being handled.
   * @param channelId - the board's channel id
   * @param message - what to post
   */
  postChannelMessage(channelId: string, message: AdapterPostableMessage): Promise<RawMessage<BoardMessage>> {
    return this.postMessage(channelIdOf(channelId), message);
  }

  /**
   * Edits the bot's message.
   * @param threadId - its thread
   * @param messageId - the message
   * @param message - the new content
   */
  editMessage(threadId: string, messageId: string, message: AdapterPostableMessage): Promise<RawMessage<BoardMessage>> {
    const content = this.format.renderPostable(message);
    return this.connected('editMessage').poster.edit(threadId, messageId, content);
  }

  /** Deletes the bot's message. @param threadId - its thread @param messageId - the message */
  deleteMessage(threadId: string, messageId: string): Promise<void> {
    return this.connected('deleteMessage').poster.delete(threadId, messageId);
  }

  /**
   * Streams an answer through edits inside the rate limit (see `streamThroughEdits`).
   * @param threadId - where it goes
   * @param textStream - the text
   * @param options - Chat's pacing (`updateIntervalMs`) and signal
   */
  stream(
    threadId: string,
    textStream: AsyncIterable<string | StreamChunk>,
    options?: StreamOptions,
  ): Promise<RawMessage<BoardMessage>> {
    const pacing = { updateIntervalMs: options?.updateIntervalMs ?? 500, signal: options?.signal };
    return streamThroughEdits(this.connected('stream').poster, threadId, textStream, pacing);
  }

  /**
   * A thread's messages, oldest first in each page, found by a bounded scan of its board (`maxScan`).
   * @param threadId - the thread (a channel id reads the board's top-level messages)
   * @param options - Chat's paging
   */
  fetchMessages(threadId: string, options?: FetchOptions): Promise<FetchResult<BoardMessage>> {
    return this.connected('fetchMessages').history.messages(threadId, options);
  }

  /**
   * A board's top-level messages (each starts a thread), by a bounded scan.
   * @param channelId - the board's channel id
   * @param options - Chat's paging
   */
  fetchChannelMessages(channelId: string, options?: FetchOptions): Promise<FetchResult<BoardMessage>> {
    return this.connected('fetchChannelMessages').history.channelMessages(channelId, options);
  }

  /** A thread's board. @param threadId - the thread */
  fetchThread(threadId: string): Promise<ThreadInfo> {
    return this.connected('fetchThread').history.thread(threadId);
  }

  /** A board as a channel. @param channelId - the board's channel id */
  fetchChannelInfo(channelId: string): Promise<ChannelInfo> {
    return this.connected('fetchChannelInfo').history.channel(channelId);
  }

  /**
   * A person's profile as Chat SDK's `UserInfo` (`chat.getUser`), or null for an unknown id.
   * @param userId - the person's id on the platform
   */
  async getUser(userId: string): Promise<UserInfo | null> {
    const p = await this.connected('getUser').people.find(userId);
    if (p === null) return null;
    const avatar = p.avatar_url === null ? {} : { avatarUrl: p.avatar_url };
    return { userId: p.id, userName: p.username, fullName: p.display_name, isBot: p.is_bot, ...avatar };
  }

  /** Not supported: the platform has no reactions. */
  async addReaction(_threadId: string, _messageId: string, _emoji: EmojiValue | string): Promise<void> {
    throw notSupported('reactions');
  }

  /** Not supported: the platform has no reactions. */
  async removeReaction(_threadId: string, _messageId: string, _emoji: EmojiValue | string): Promise<void> {
    throw notSupported('reactions');
  }

  /** Not supported: the platform has no typing indicator. */
  async startTyping(_threadId: string): Promise<void> {
    throw notSupported('typing');
  }

  /** Not supported: the platform has no dialogs. */
  async openModal(_triggerId: string, _modal: ModalElement): Promise<{ viewId: string }> {
    throw notSupported('modals');
  }

  private connected(what: string): Connected {
    if (this.parts === undefined) throw new AdapterNotInitializedError(what);
    return this.parts;
  }
}
