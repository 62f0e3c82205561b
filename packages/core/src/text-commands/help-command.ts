import { Command } from '../commands/command.js';
import type { CommandContext } from '../commands/context.js';
import { Option } from '../commands/option.js';
import { IsOptional } from '../kernel/class-validator.js';
import { Inject } from '../kernel/inject.js';
import { CommandCatalogue } from './catalogue.js';

/** The options of {@link HelpCommand}. */
export class HelpOptions {
  /** A command to explain; none lists them all. */
  @Option({ description: 'A command to explain', type: 'string' })
  @IsOptional()
  command?: string;
}

/**
 * The generated `help`: lists the bot's commands and their options from the derived schema. It
 * answers as text (`!help`, `!help roll`) whenever a command can be invoked as text; list it in
 * `createBot({ handlers })` to register it as the slash command `/help` too (it changes the
 * registered set, so it is asked for). A bot that declares its own `help` command keeps it.
 */
@Command({ name: 'help', description: 'Lists the commands and their options', options: HelpOptions, text: true })
export class HelpCommand {
  /** @param catalogue - the bot's commands (the bot provides it) */
  constructor(@Inject(CommandCatalogue) private readonly catalogue: CommandCatalogue) {}

  /** Answers with the list, or with one command's options. */
  run(_ctx: CommandContext<HelpOptions>, { command }: HelpOptions): string {
    return this.catalogue.help(command);
  }
}
