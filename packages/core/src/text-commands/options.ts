import { type EditableOptions, type ResolvedEditable, resolveEditable } from '../editable/editable-options.js';
import { InvalidConfigError } from '../errors.js';

/** What `createBot({ textCommands })` takes: how commands are invoked as text (`!roll 20`). */
export interface TextCommandOptions {
  /** What a text invocation starts with, right before the command's name. @defaultValue `'!'` */
  prefix?: string;
  /**
   * Every `@Command` can also be invoked as text, except those with `@Command({ text: false })`.
   * @defaultValue false: only commands with `@Command({ text: true })`
   */
  all?: boolean;
  /**
   * Text invocations follow their message's edits (run again, answers edited in place), except those
   * of commands with `@Command({ editable: false })`; an object also says what a deletion of the
   * message does (see docs/commands-and-options.md, "Editable text commands").
   * @defaultValue false: only commands with `@Command({ editable: true })`, whose answers are deleted with their message
   */
  editable?: boolean | EditableOptions;
  /**
   * An unknown command that is close to a known one (`!langauge fr`) is answered with the nearest
   * names (at most once in `refusalIntervalMs` per person, like a refusal); false: it is ignored, as
   * any other text.
   * @defaultValue true
   */
  suggest?: boolean;
}

/** The defaults of {@link TextCommandOptions}. */
export const DEFAULT_TEXT_COMMAND_OPTIONS = {
  prefix: '!',
  all: false,
  editable: false,
  suggest: true,
} as const satisfies Required<TextCommandOptions>;

/** {@link TextCommandOptions} with its defaults applied. */
export type ResolvedTextCommandOptions = Required<TextCommandOptions>;

/**
 * Applies the defaults. A blank prefix would read every message as a command, and one with white
 * space could never be typed before a name, so both are refused.
 * @throws InvalidConfigError naming the fix
 */
export function resolveTextCommandOptions(options: TextCommandOptions = {}): ResolvedTextCommandOptions {
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const resolved = { ...DEFAULT_TEXT_COMMAND_OPTIONS, ...defined } as ResolvedTextCommandOptions;
  if (typeof resolved.prefix !== 'string' || resolved.prefix === '' || /\s/.test(resolved.prefix)) {
    throw new InvalidConfigError(
      `textCommands.prefix must be a non-empty text without spaces, such as '!' (got ${JSON.stringify(resolved.prefix)})`,
    );
  }
  textEditable(resolved);
  return resolved;
}

/**
 * How the bot's text invocations follow their message's edits (`textCommands.editable`, defaults
 * applied); undefined: they do not.
 * @throws InvalidConfigError for a value that is neither a boolean nor an object
 */
export function textEditable(options: ResolvedTextCommandOptions): ResolvedEditable | undefined {
  return resolveEditable(options.editable, 'textCommands.editable', (m) => new InvalidConfigError(m));
}
