import type { CommandTarget } from '../commands/command-stages.js';
import type { CommandTable } from '../commands/handle-interaction.js';
import { DEFAULT_EDITABLE_OPTIONS, type ResolvedEditable } from '../editable/editable-options.js';

/** A command that can be invoked as text: its method, or its subcommands' by name. */
export interface TextCommandEntry {
  /** The method of a command without subcommands. */
  run?: CommandTarget;
  /** The methods of its subcommands, by name. */
  subcommands: Map<string, CommandTarget>;
  /** How its invocations follow their message's edits; absent: they do not. */
  editable?: ResolvedEditable;
}

/**
 * The commands that can be invoked as text, by name: those with `@Command({ text: true })`, or
 * every one but those with `text: false` when `all` is on. Their targets are the slash table's, so
 * both ways run the same method with the same guards and cooldown.
 *
 * @param commands - the bot's command table
 * @param all - the bot's `textCommands.all`
 * @param editable - the bot's `textCommands.editable`, resolved
 */
export function textCommandTable(
  commands: CommandTable,
  all: boolean,
  editable?: ResolvedEditable,
): Map<string, TextCommandEntry> {
  const table = new Map<string, TextCommandEntry>();
  for (const target of commands.values()) {
    const { route } = target;
    if (!(route.text ?? all)) continue;
    const entry: TextCommandEntry = table.get(route.command) ?? { subcommands: new Map() };
    // `@Command({ editable })` wins over the bot's; `true` takes the bot's options, or the defaults.
    const follows =
      route.editable === undefined ? editable : route.editable ? (editable ?? DEFAULT_EDITABLE_OPTIONS) : undefined;
    if (follows) entry.editable = follows;
    if (route.subcommand === null) entry.run = target;
    else entry.subcommands.set(route.subcommand, target);
    table.set(route.command, entry);
  }
  return table;
}
