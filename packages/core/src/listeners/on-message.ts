import { InvalidHandlerError } from '../errors.js';
import { appendMetadata } from '../kernel/metadata.js';
import type { MessageContext } from './context.js';
import type { MessageEventName, MessageListenerMetadata, MessageMatcher } from './metadata.js';
import { MESSAGE_LISTENERS_KEY } from './metadata.js';

/** Options of the message-listener decorators. */
export interface MessageListenerOptions {
  /** Let the bot's own messages reach this listener. @defaultValue false */
  includeOwn?: boolean;
}

/** A message listener method. */
export type MessageListener = (ctx: MessageContext) => unknown;

function listener(event: MessageEventName, matcher: MessageMatcher | undefined, options: MessageListenerOptions) {
  return <T extends MessageListener>(target: object, method: string | symbol, _d: TypedPropertyDescriptor<T>): void => {
    if (typeof method !== 'string') throw new InvalidHandlerError(`@${event} listener needs a string method name`);
    const meta: MessageListenerMetadata = { event, method, includeOwn: options.includeOwn ?? false };
    if (matcher !== undefined) meta.matcher = matcher;
    appendMetadata(MESSAGE_LISTENERS_KEY, meta, target.constructor);
  };
}

/**
 * Runs the method for new messages: all of them, those whose content matches a regular
 * expression (`ctx.match`), starts with a prefix, or passes a predicate.
 */
export const OnMessage = (matcher?: MessageMatcher, options: MessageListenerOptions = {}) =>
  listener('message.create', matcher, options);

/** Runs the method for edited messages (their new state), optionally filtered like `@OnMessage`. */
export const OnMessageEdit = (matcher?: MessageMatcher, options: MessageListenerOptions = {}) =>
  listener('message.edit', matcher, options);

/** Runs the method for deleted messages (`ctx.message` is the tombstone, without content). */
export const OnMessageDelete = (options: MessageListenerOptions = {}) => listener('message.delete', undefined, options);
