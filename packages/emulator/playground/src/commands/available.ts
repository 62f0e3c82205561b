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
