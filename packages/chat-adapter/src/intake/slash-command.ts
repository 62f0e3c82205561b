import type { Interaction } from '@boardbot/protocol';

/**
 * A platform command invocation as Chat SDK's slash command: `/name` (and ` subcommand`), and its
 * option values in order, space-separated, as `text` (as the Discord adapter flattens them); the
 * options by name stay in `event.raw.command.options`.
 * @param interaction - the invocation
 */
export function slashCommandOf(interaction: Interaction): { command: string; text: string } {
  const { name, subcommand, options } = interaction.command;
  return {
    command: subcommand === null ? `/${name}` : `/${name} ${subcommand}`,
    text: Object.values(options)
      .map((v) => String(v))
      .join(' '),
  };
}
