import { type EditableOptions, resolveEditable } from '../editable/editable-options.js';
import { InvalidHandlerError } from '../errors.js';
import { appendMetadata } from '../kernel/metadata.js';
import { type BurstMode, type BurstOptions, burstPolicy } from './bursts/burst-policy.js';
import type { MessageContext } from './context.js';
import type { MessageEventName, MessageListenerMetadata, MessageMatcher } from './metadata.js';
import { MESSAGE_LISTENERS_KEY } from './metadata.js';
import { DEFAULT_MATCH_MAX_LENGTH, MessagePattern, type RegexEngine } from './patterns/message-pattern.js';

/** Options of the message-listener decorators. */
export interface MessageListenerOptions {
  /** Let the bot's own messages reach this listener. @defaultValue false */
  includeOwn?: boolean;
  /**
   * How a regular expression matcher runs: `'js'` (the JavaScript engine, whose patterns are checked
   * for catastrophic backtracking at start) or `'re2'` (re2js: linear time whatever the pattern, no
   * backreferences or lookarounds; for patterns that must be accepted as they are). @defaultValue 'js'
   */
  engine?: RegexEngine;
  /**
   * Content longer than this is not matched by the regular expression (the listener does not run).
   * @defaultValue 2000
   */
  maxLength?: number;
  /**
   * Accept a regular expression the start-time check finds vulnerable to catastrophic backtracking
   * (a message can then stall the whole bot): the pattern is not checked. @defaultValue false
   */
  allowSlowRegex?: boolean;
  /**
   * Run once the message's other listeners are done, instead of beside them: a listener that reads
   * what another one writes for the same message (a conversation's, which must see the start that
   * message made) does. @defaultValue false
   */
  afterOthers?: boolean;
}

/** Options of `@OnMessage`: those of every message listener, and its burst policy. */
export interface OnMessageOptions extends MessageListenerOptions {
  /**
   * How the listener takes a burst of messages from one author on one board (see {@link BurstMode}):
   * `'queue'`, `'drop'`, `'latest'`, `'collapse'`, or `{ mode: 'debounce', ms }`.
   * Refused with `orderBy: 'none'`. @defaultValue 'queue'
   */
  burst?: BurstMode | BurstOptions;
  /**
   * The listener runs again when its message is edited, and its replies follow: edited in place,
   * the extra ones posted or deleted; an object also says what a deletion of the message does. See
   * docs/listening-to-messages.md, "Editable answers". Not with `burst`. @defaultValue false
   */
  editable?: boolean | EditableOptions;
}

/** A message listener method. */
export type MessageListener = (ctx: MessageContext) => unknown;

/** The options that only a regular expression matcher takes. */
const REGEX_OPTIONS = ['engine', 'maxLength', 'allowSlowRegex'] as const;

function pattern(regex: RegExp, options: MessageListenerOptions, where: string): MessagePattern {
  const { engine = 'js', maxLength = DEFAULT_MATCH_MAX_LENGTH, allowSlowRegex = false } = options;
  if (engine !== 'js' && engine !== 're2') {
    throw new InvalidHandlerError(`${where}: engine must be 'js' or 're2', got ${String(engine)}`);
  }
  if (!Number.isSafeInteger(maxLength) || maxLength < 1) {
    throw new InvalidHandlerError(`${where}: maxLength must be a whole number of characters, at least 1`);
  }
  return new MessagePattern(regex, { engine, maxLength, allowSlowRegex, where });
}

function listener(event: MessageEventName, matcher: MessageMatcher | undefined, options: OnMessageOptions) {
  return <T extends MessageListener>(target: object, method: string | symbol, _d: TypedPropertyDescriptor<T>): void => {
    if (typeof method !== 'string') throw new InvalidHandlerError(`@${event} listener needs a string method name`);
    const where = `${target.constructor.name}.${method}`;
    const meta: MessageListenerMetadata = { event, method, includeOwn: options.includeOwn ?? false };
    if (options.afterOthers === true) meta.afterOthers = true;
    if (matcher !== undefined) meta.matcher = matcher;
    if (options.burst !== undefined) {
      if (event !== 'message.create') throw new InvalidHandlerError(`${where}: burst applies to @OnMessage only`);
      const policy = burstPolicy(options.burst, where);
      if (policy) meta.burst = policy;
    }
    const editable = resolveEditable(options.editable, `${where}: editable`, (m) => new InvalidHandlerError(m));
    if (editable) {
      if (event !== 'message.create') throw new InvalidHandlerError(`${where}: editable applies to @OnMessage only`);
      // A burst's answer is one run's for many messages: no one message's edit can re-run it.
      if (meta.burst) throw new InvalidHandlerError(`${where}: editable cannot be combined with burst; choose one`);
      meta.editable = editable;
    }
    if (matcher instanceof RegExp) meta.pattern = pattern(matcher, options, where);
    else {
      const misplaced = REGEX_OPTIONS.filter((name) => options[name] !== undefined);
      if (misplaced.length > 0) {
        throw new InvalidHandlerError(`${where}: ${misplaced.join(', ')} apply to a regular expression matcher only`);
      }
    }
    appendMetadata(MESSAGE_LISTENERS_KEY, meta, target.constructor);
  };
}

/**
 * Runs the method for new messages: all of them, those whose content matches a regular
 * expression (`ctx.match`), starts with a prefix, or passes a predicate. A regular expression is
 * checked for catastrophic backtracking when the bot starts (see {@link MessageListenerOptions}). A
 * burst policy (`burst`) answers a burst of messages once (see {@link OnMessageOptions}).
 */
export const OnMessage = (matcher?: MessageMatcher, options: OnMessageOptions = {}) =>
  listener('message.create', matcher, options);

/** Runs the method for edited messages (their new state), optionally filtered like `@OnMessage`. */
export const OnMessageEdit = (matcher?: MessageMatcher, options: MessageListenerOptions = {}) =>
  listener('message.edit', matcher, options);

/** Runs the method for deleted messages (`ctx.message` is the tombstone, without content). */
export const OnMessageDelete = (options: MessageListenerOptions = {}) => listener('message.delete', undefined, options);
