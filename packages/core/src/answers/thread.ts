import type { Message } from '@boardbot/protocol';
import { LIMITS } from '@boardbot/protocol/runtime';
import type { BotRest, RequestOptions } from '../kernel/ports.js';

/** Options of `ctx.thread(options)`. */
export interface ThreadOptions {
  /** Most messages the thread holds (the newest, when there are more). @defaultValue 20 */
  limit?: number;
  /**
   * Most pages of the board's messages read to find them (100 messages a page): the contract has no
   * call that reads one message, so a reply chain is walked through the list, newest first.
   * @defaultValue 5
   */
  pageBudget?: number;
}

/** The defaults of {@link ThreadOptions}. */
export const DEFAULT_THREAD_OPTIONS = { limit: 20, pageBudget: 5 } as const satisfies Required<ThreadOptions>;

/** One message of a thread, with who wrote it. */
export interface ThreadMessage {
  readonly message: Message;
  /** The author's display name, the webhook's name, or `someone`. */
  readonly authorName: string;
  /** Whether the bot wrote it. */
  readonly own: boolean;
}

/** The conversation a message belongs to, oldest first, in its latest state (edits shown, deletions left out). */
export interface Thread {
  /** `replies`: the message's reply chain; `recent`: the board's messages up to it (it replies to nothing). */
  readonly kind: 'replies' | 'recent';
  readonly messages: readonly ThreadMessage[];
}

/** What reading a thread needs. */
export interface ThreadSource {
  rest: BotRest;
  botUserId: string;
  /** A user's display name (cached by the caller). */
  nameOf(userId: string): Promise<string>;
  requestOptions: RequestOptions;
}

/**
 * Reads the messages of `message`'s board newest first, from `message` down, a page at a time,
 * within a budget of pages; every message read is kept by id.
 */
class BoardPages {
  private readonly byId = new Map<string, Message>();
  private readonly read: Message[] = [];
  private before: number;
  private pages = 0;
  private done = false;

  constructor(
    private readonly source: ThreadSource,
    private readonly from: Message,
    private readonly budget: number,
  ) {
    this.before = from.seq + 1;
  }

  /** Whether another page can be read. */
  get more(): boolean {
    return !this.done && this.pages < this.budget;
  }

  /** The messages read so far, newest first. */
  get messages(): readonly Message[] {
    return this.read;
  }

  /** The message `id`, reading pages until it is found or the budget is spent. */
  async find(id: string): Promise<Message | undefined> {
    while (!this.byId.has(id) && this.more) await this.next();
    return this.byId.get(id);
  }

  async next(): Promise<void> {
    const { rest, requestOptions } = this.source;
    const page = await rest.listMessages(
      this.from.board_id,
      { before: this.before, limit: LIMITS.listMax },
      requestOptions,
    );
    this.pages++;
    for (const m of page) {
      this.byId.set(m.id, m);
      this.read.push(m);
      this.before = Math.min(this.before, m.seq);
    }
    if (page.length < LIMITS.listMax || this.before <= 1) this.done = true;
  }
}

/**
 * Reads the conversation `message` belongs to: its reply chain when it replies to something, else
 * the board's messages up to it; through the REST client's paging and rate limit.
 *
 * @param source - the REST client, the bot's user and how to name people
 * @param message - the message the thread ends with
 * @param options - how many messages, how many pages
 */
export async function readThread(source: ThreadSource, message: Message, options: ThreadOptions = {}): Promise<Thread> {
  const limit = options.limit ?? DEFAULT_THREAD_OPTIONS.limit;
  const pages = new BoardPages(source, message, options.pageBudget ?? DEFAULT_THREAD_OPTIONS.pageBudget);
  const newestFirst: Message[] = [];
  let kind: Thread['kind'];
  if (message.reply_to === null) {
    kind = 'recent';
    while (pages.more && pages.messages.filter((m) => m.deleted_at === null).length < limit) await pages.next();
    newestFirst.push(...pages.messages.filter((m) => m.deleted_at === null).slice(0, limit));
  } else {
    kind = 'replies';
    // The message as it is now (edited since the event?), then what it replies to, and so on.
    let current: Message | undefined = (await pages.find(message.id)) ?? message;
    const seen = new Set<string>();
    while (current && !seen.has(current.id) && newestFirst.length < limit) {
      seen.add(current.id);
      // A deleted message is left out, but the chain goes on through it (its tombstone keeps reply_to).
      if (current.deleted_at === null) newestFirst.push(current);
      current = current.reply_to === null ? undefined : await pages.find(current.reply_to);
    }
  }
  const messages = await Promise.all(newestFirst.reverse().map((m) => threadMessage(source, m)));
  return { kind, messages };
}

async function threadMessage(source: ThreadSource, message: Message): Promise<ThreadMessage> {
  const own = message.author !== null && message.author === source.botUserId;
  let authorName = message.webhook_name ?? 'someone';
  if (message.author !== null && !own) authorName = await source.nameOf(message.author);
  return { message, authorName, own };
}
