import type { CommandTable, CommandTarget } from '../commands/handle-interaction.js';

/** A command that can be invoked as text: its method, or its subcommands' by name. */
export interface TextCommandEntry {
  /** The method of a command without subcommands. */
  run?: CommandTarget;
  /** The methods of its subcommands, by name. */
  subcommands: Map<string, CommandTarget>;
}

/**
 * The commands that can be invoked as text, by name: those with `@Command({ text: true })`, or
 * every one but those with `text: false` when `all` is on. Their targets are the slash table's, so
 * both ways run the same method with the same guards and cooldown.
 *
 * @param commands - the bot's command table
 * @param all - the bot's `textCommands.all`
 */
export function textCommandTable(commands: CommandTable, all: boolean): Map<string, TextCommandEntry> {
  const table = new Map<string, TextCommandEntry>();
  for (const target of commands.values()) {
    const { route } = target;
    if (!(route.text ?? all)) continue;
    const entry: TextCommandEntry = table.get(route.command) ?? { subcommands: new Map() };
    if (route.subcommand === null) entry.run = target;
    else entry.subcommands.set(route.subcommand, target);
    table.set(route.command, entry);
  }
  return table;
}
