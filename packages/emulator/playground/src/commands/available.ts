import type { AppInfo, Command } from '@boardbot/emulator/control';

/** A slash command a person can use on a board, with the app that registered it. */
export interface AvailableCommand {
  app: AppInfo;
  command: Command;
}

/**
 * The commands usable on a board: those of every app installed on it, sorted by name (then app).
 * The invocation names its app, so two apps may register the same name.
 */
export function commandsOnBoard(apps: readonly AppInfo[], boardId: string | undefined): AvailableCommand[] {
  if (boardId === undefined) return [];
  return apps
    .filter((app) => app.board_ids.includes(boardId))
    .flatMap((app) => app.commands.map((command) => ({ app, command })))
    .sort((a, b) => a.command.name.localeCompare(b.command.name) || a.app.name.localeCompare(b.app.name));
}

/**
 * The commands whose name starts with what follows the `/` of `text`, or `undefined` when `text` is
 * not a command being typed (it does not start with `/`, or already has a space).
 */
export function matchCommands(commands: readonly AvailableCommand[], text: string): AvailableCommand[] | undefined {
  if (!text.startsWith('/') || /\s/.test(text)) return undefined;
  const prefix = text.slice(1).toLowerCase();
  return commands.filter((c) => c.command.name.startsWith(prefix));
}

/**
 * What a text command starts with in boardbot by default (`createBot({ textCommands: { prefix } })`).
 * The platform does not know which commands a bot also takes as text, nor its prefix: the composer
 * offers every command on the board after this prefix, as a hint.
 */
export const TEXT_PREFIX = '!';

/** A command, or one of its subcommands, as it is typed in a message: `!roll`, `!note add`. */
export interface TextSuggestion {
  app: AppInfo;
  /** What follows the prefix: `roll`, `note add`. */
  typed: string;
  description: string;
  /** Its options in the registered order, `<required>` or `[optional]`. */
  usage: string;
}

function usageOf(options: readonly { name: string; required?: boolean; type: string }[]): string {
  return options
    .filter((o) => o.type !== 'subcommand')
    .map((o) => (o.required ? `<${o.name}>` : `[${o.name}]`))
    .join(' ');
}

/** Every command of `commands` as typed in a message, each subcommand on its own. */
export function textCommandsOf(commands: readonly AvailableCommand[]): TextSuggestion[] {
  return commands.flatMap(({ app, command }) => {
    const subs = command.options.filter((o) => o.type === 'subcommand');
    if (subs.length === 0) {
      return [{ app, typed: command.name, description: command.description, usage: usageOf(command.options) }];
    }
    return subs.map((s) => ({
      app,
      typed: `${command.name} ${s.name}`,
      description: s.description,
      usage: usageOf(s.options ?? []),
    }));
  });
}

/**
 * The text commands that start with what follows the prefix of `text`, or `undefined` when `text`
 * is not a text command's name being typed (no prefix, or its arguments have begun).
 */
export function matchTextCommands(
  commands: readonly AvailableCommand[],
  text: string,
  prefix = TEXT_PREFIX,
): TextSuggestion[] | undefined {
  if (!text.startsWith(prefix) || text.includes('\n')) return undefined;
  const typed = text.slice(prefix.length).toLowerCase();
  const all = textCommandsOf(commands);
  // Once a whole name is followed by a space, the person is typing its arguments.
  if (all.some((s) => typed.startsWith(`${s.typed} `))) return undefined;
  const found = all.filter((s) => s.typed.startsWith(typed));
  return found.length === 0 && /\s/.test(typed) ? undefined : found;
}
