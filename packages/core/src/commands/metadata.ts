import type { OptionChoice, OptionType } from '@boardbot/protocol';
import { type Class, metadataKey } from '../kernel/metadata.js';

/** `@Command` on a class: {@link CommandMetadata}. */
export const COMMAND_KEY = metadataKey('command');
/** `@Subcommand` methods of a class: {@link SubcommandMetadata}[]. */
export const SUBCOMMANDS_KEY = metadataKey('subcommands');
/** `@Option` properties of an options class: {@link OptionMetadata}[]. */
export const OPTIONS_KEY = metadataKey('options');

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
  /** Whether it can also be invoked as text (`!roll 20`); absent: as the bot's `textCommands.all` says. */
  text?: boolean;
  /** Whether its text invocations follow their message's edits; absent: as the bot's `textCommands.editable` says. */
  editable?: boolean;
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
  /** A text invocation's last string option that takes the rest of the line. */
  rest?: boolean;
}
