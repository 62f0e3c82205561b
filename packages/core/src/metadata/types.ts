import type { Message, OptionChoice, OptionType } from '@boardbot/protocol';
import type { GuardRef } from '../dispatch/guard.js';

/** A class that can be constructed, with any constructor parameters. */
// biome-ignore lint/suspicious/noExplicitAny: constructor parameters are resolved at run time by DI.
export type Class<T = unknown> = new (...args: any[]) => T;

/** The type of a leaf option (anything but `subcommand`). */
export type LeafOptionType = Exclude<OptionType, 'subcommand'>;

/** What `@Command` stores on a class. */
export interface CommandMetadata {
  /** Command name (`^[a-z0-9][a-z0-9_-]{0,31}$`). */
  name: string;
  /** Shown to people, 1..100 characters. */
  description: string;
  /** The options class of the command itself (absent when it has none or only subcommands). */
  options?: Class;
}

/** What `@Subcommand` stores for one method. */
export interface SubcommandMetadata extends CommandMetadata {
  /** The method that handles the subcommand. */
  method: string;
}

/** What `@Option` stores for one property of an options class. */
export interface OptionMetadata {
  /** Property of the options class that receives the value. */
  property: string;
  /** Option name on the wire (defaults to the property name). */
  name: string;
  description: string;
  /** Explicit type; when absent it is inferred (design:type, class-validator, default value). */
  type?: LeafOptionType;
  /** Explicit choices; when absent `@IsIn` gives them. */
  choices?: OptionChoice[];
}

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
  /** Whether the bot's own messages reach this listener. */
  includeOwn: boolean;
}

/** What `@OnEvent`/`@OnReady` store for one method. */
export interface EventListenerMetadata {
  /** Gateway event name, exactly as on the wire (`ready`, `message.create`, or an unknown name). */
  event: string;
  method: string;
}

/** Whose uses a cooldown counts together. */
export type CooldownScope = 'user' | 'board' | 'app';

/** What `@Cooldown` stores. */
export interface CooldownMetadata {
  /** Length of the window, in milliseconds. */
  ms: number;
  /** Uses allowed per window and scope key. */
  uses: number;
  per: CooldownScope;
}

export type { GuardRef };
