import type { Message } from '@boardbot/protocol';
import type { ResolvedEditable } from '../editable/editable-options.js';
import { metadataKey } from '../kernel/metadata.js';
import type { BurstPolicy } from './bursts/burst-policy.js';
import type { MessagePattern } from './patterns/message-pattern.js';

/** `@OnMessage`, `@OnMessageEdit`, `@OnMessageDelete` methods: {@link MessageListenerMetadata}[]. */
export const MESSAGE_LISTENERS_KEY = metadataKey('message-listeners');
/** `@OnEvent` and `@OnReady` methods: {@link EventListenerMetadata}[]. */
export const EVENT_LISTENERS_KEY = metadataKey('event-listeners');

/** The message events a listener can follow. */
export type MessageEventName = 'message.create' | 'message.edit' | 'message.delete';

/**
 * Which messages a listener wants: a regular expression tested against the content (its match is
 * `ctx.match`), a prefix the content starts with, or a predicate.
 */
export type MessageMatcher = RegExp | string | ((message: Message) => boolean);

/** What the message-listener decorators store for one method. */
export interface MessageListenerMetadata {
  event: MessageEventName;
  method: string;
  /** Absent: every message of the event. */
  matcher?: MessageMatcher;
  /** A regular expression matcher as it is run (engine, `maxLength`); set when `matcher` is one. */
  pattern?: MessagePattern;
  /** Whether the bot's own messages reach this listener. */
  includeOwn: boolean;
  /** Whether it runs once the message's other listeners are done (absent: beside them). */
  afterOthers?: boolean;
  /** How it takes a burst of messages (`@OnMessage` only); absent: each in turn. */
  burst?: BurstPolicy;
  /** How its answers follow the message's edits (`@OnMessage` only); absent: they do not. */
  editable?: ResolvedEditable;
}

/** What `@OnEvent`/`@OnReady` store for one method. */
export interface EventListenerMetadata {
  /** Gateway event name, exactly as on the wire (`ready`, `message.create`, or an unknown name). */
  event: string;
  method: string;
}
