import type { GatewayEventMap, Message, UserProfile } from '@boardbot/protocol';
import type { StreamedAnswer, StreamOptions, StreamSource } from '../answers/stream-options.js';
import type { Thread, ThreadOptions } from '../answers/thread.js';
import type { BaseContext, ReplyBody } from '../kernel/context.js';
import type { MessageEventName } from './metadata.js';

/** What a message listener receives. */
export interface MessageContext extends BaseContext {
  readonly kind: 'message';
  /** Which message event this is. */
  readonly event: MessageEventName;
  /** The message (its new state on edit, the tombstone on delete). */
  readonly message: Message;
  readonly boardId: string;
  /** The author's profile; null for webhook messages or when it could not be read. */
  readonly author: UserProfile | null;
  /** A name to address the author by: display name, webhook name, or `someone`. */
  readonly authorName: string;
  /** The regular expression match, when the listener matched by one. */
  readonly match: RegExpExecArray | null;
  /**
   * The earlier messages of the burst this run answers, oldest first, when the listener has a burst
   * policy (`'debounce'`, `'collapse'`, or `'latest'`'s cancelled and replaced ones); `ctx.message`
   * is the newest. Empty otherwise.
   */
  readonly skipped: readonly Message[];
  /**
   * How many messages this run stands for besides `ctx.message`: those in `ctx.skipped`, and those a
   * flood pushed past the burst's cap (`burst.max`), released unread. 0 without a burst policy.
   */
  readonly skippedCount: number;
  /** Whether the bot itself wrote the message. */
  readonly isOwn: boolean;
  /** Whether something was sent through `reply` or a returned body. */
  readonly replied: boolean;
  /** Replies to the message (threaded with `replyTo`). */
  reply(body: ReplyBody): Promise<Message>;
  /**
   * Replies with text that arrives piece by piece (a model's answer): posts a placeholder, then edits
   * the reply as text arrives, continues it in new replies past the content limit, and makes a final
   * edit with the whole text. See docs/assistants.md for its guarantees and bounds.
   * @param source - an async iterable or a web stream of text (e.g. `streamText(...).textStream`)
   * @param options - throttle (default one edit per second) and bounds
   * @example await ctx.stream(streamText({ model, prompt: ctx.message.content ?? '' }).textStream);
   */
  stream(source: StreamSource, options?: StreamOptions): Promise<StreamedAnswer>;
  /**
   * Reads the conversation this message belongs to, oldest first: its reply chain when it replies to
   * something, else the board's messages up to it; edits show their latest text, deleted messages
   * are left out. Give it to a model with `toModelMessages(thread)`.
   * @param options - how many messages (default 20), how many list pages to read (default 5)
   */
  thread(options?: ThreadOptions): Promise<Thread>;
  /** Posts a message on the board. */
  send(body: ReplyBody): Promise<Message>;
  /** Edits one of the bot's own messages on this board. */
  edit(message: string | Message, content: string): Promise<Message>;
  /** Deletes one of the bot's own messages on this board. */
  delete(message: string | Message): Promise<void>;
}

/** Payload of an event this protocol version does not know: the raw `data` JSON. */
export interface UnknownEventPayload {
  readonly type?: string;
  readonly [key: string]: unknown;
}

/** The payload an `@OnEvent(name)` listener receives for `name`. */
export type EventPayload<K extends string> = K extends keyof GatewayEventMap ? GatewayEventMap[K] : UnknownEventPayload;

/** What an `@OnEvent`/`@OnReady` listener receives beside the payload. */
export interface EventContext extends BaseContext {
  readonly kind: 'event';
  /** Name and gateway id of the event. */
  readonly event: { readonly name: string; readonly id: string };
  /** Posts a message on a board. */
  send(boardId: string, body: ReplyBody): Promise<Message>;
}

declare module '../kernel/context.js' {
  interface GuardedContexts {
    message: MessageContext;
  }
  interface HandlerContexts {
    event: EventContext;
  }
}
