import type { GatewayEventMap, Message, UserProfile } from '@boardbot/protocol';
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
  /** Whether the bot itself wrote the message. */
  readonly isOwn: boolean;
  /** Whether something was sent through `reply` or a returned body. */
  readonly replied: boolean;
  /** Replies to the message (threaded with `replyTo`). */
  reply(body: ReplyBody): Promise<Message>;
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
