import type { App, Embed, GatewayEventMap, Interaction, Logger, Message, UserProfile } from '@boardbot/protocol';
import type { MessageEventName } from '../metadata/types.js';
import type { BotRest, RequestOptions } from '../runtime/ports.js';

/** A message body a handler sends: plain text, or content and embeds. */
export type ReplyBody = string | { content?: string; embeds?: Embed[] };

/**
 * What an answer to an interaction does once the platform refused it as the sixth
 * (`410 interaction_exhausted`; it accepts 5 per interaction): `'error'` throws
 * `BOARDBOT_INTERACTION_EXHAUSTED`, `'send'` posts it as a normal message on the board instead.
 */
export type ExhaustedInteraction = 'error' | 'send';

/** What a handler may return: a body to reply with (when it has not replied yet), or nothing. */
export type HandlerResult = ReplyBody | undefined;

/** What every context carries. */
export interface BaseContext {
  /** The app the bot runs as (`bot_user_id` authors its messages). */
  readonly app: App;
  /** The full REST client; pass {@link BaseContext.requestOptions} to keep the correlation id. */
  readonly rest: BotRest;
  /** A child logger carrying this event's ids. */
  readonly log: Logger;
  /** Follows the event into every REST call made through the context (`X-Request-Id`). */
  readonly correlationId: string;
  /** `{ requestId, logger }` for calls made on `ctx.rest` directly. */
  readonly requestOptions: RequestOptions;
  /**
   * Aborted when the handler is abandoned: it ran past `handlerTimeoutMs`, or was still running when
   * `stop()` gave up waiting (`shutdownTimeoutMs`). Its writes through the context are dropped from
   * then on (`BOARDBOT_WRITE_DROPPED`); pass it to slow work so that it stops too.
   */
  readonly signal: AbortSignal;
}

/** What a slash-command handler receives. `O` is the options class. */
export interface CommandContext<O extends object = Record<string, unknown>> extends BaseContext {
  readonly kind: 'command';
  /** The invocation as delivered (its `token` is a credential: never log it). */
  readonly interaction: Interaction;
  /** The person who invoked the command. */
  readonly user: UserProfile;
  /** The board it was invoked on. */
  readonly boardId: string;
  /** Command and subcommand names. */
  readonly command: { readonly name: string; readonly subcommand: string | null };
  /** The converted and validated options (an instance of the options class). */
  readonly options: O;
  /** Whether an answer was sent (by `reply`, `followUp` or a returned body). */
  readonly replied: boolean;
  /**
   * Answers the interaction: the first answer is the reply, later ones are follow-ups. After the
   * interaction expired, it posts a normal message on the board instead and logs that it did. The
   * platform accepts 5 answers per interaction: a sixth throws `BOARDBOT_INTERACTION_EXHAUSTED`
   * (or, with `createBot({ exhaustedInteraction: 'send' })`, is posted on the board instead).
   */
  reply(body: ReplyBody): Promise<Message>;
  /** Another answer to the interaction (the platform accepts 5 in all: see {@link CommandContext.reply}). */
  followUp(body: ReplyBody): Promise<Message>;
  /** Posts a normal message on the board (not tied to the interaction). */
  send(body: ReplyBody): Promise<Message>;
}

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

/** The context guards and middleware see: a command or a message. */
export type HandlerContext = CommandContext | MessageContext;

/** Any context a handler can receive. */
export type AnyContext = CommandContext | MessageContext | EventContext;
