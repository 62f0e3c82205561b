import type { Class } from '../kernel/metadata.js';
import type { CommandMetadata } from './metadata.js';
import { COMMAND_KEY } from './metadata.js';

/** What `@Command` takes. */
export interface CommandOptions<O extends object = object> {
  /** Command name, `^[a-z0-9][a-z0-9_-]{0,31}$`. */
  name: string;
  /** Shown to people, 1..100 characters. */
  description: string;
  /** The options class: its `@Option` properties are the command's options. */
  options?: Class<O>;
  /**
   * Whether people can also invoke it as text, `!roll 20` (see docs/commands-and-options.md, "Text
   * commands"); a subcommand follows its command. @defaultValue the bot's `textCommands.all` (false)
   */
  text?: boolean;
  /**
   * Whether a text invocation follows its message's edits: run again on an edit, its answers edited
   * in place (see docs/commands-and-options.md, "Editable text commands"); a subcommand follows its
   * command. @defaultValue the bot's `textCommands.editable` (false)
   */
  editable?: boolean;
}

/**
 * Declares a slash command (and, with `text`, a text command). The class handles it in `run(ctx, options)`, or in `@Subcommand`
 * methods (a command has either, never both).
 *
 * @param options - name, description and options class
 */
export function Command<O extends object>(options: CommandOptions<O>): ClassDecorator {
  return (target) => {
    const meta: CommandMetadata = { name: options.name, description: options.description };
    if (options.options) meta.options = options.options;
    if (options.text !== undefined) meta.text = options.text;
    if (options.editable !== undefined) meta.editable = options.editable;
    Reflect.defineMetadata(COMMAND_KEY, meta, target);
  };
}
