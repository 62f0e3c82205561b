import { Command, type CommandContext, RequireRole, Subcommand } from '@boardbot/core';
import { Rounds } from './round.js';

/** `/standup on|off|summary`: admins choose the boards that get the reminder; anyone reads the summary. */
@Command({ name: 'standup', description: 'The daily standup of this board' })
export class StandupCommand {
  @Subcommand({ name: 'on', description: 'Remind this board on weekday mornings (admins)' })
  @RequireRole('admin')
  async on(ctx: CommandContext) {
    await ctx.session(Rounds).update((round) => {
      round.on = true;
    });
    return 'The standup reminder is on for this board, weekdays at 9:00.';
  }

  @Subcommand({ name: 'off', description: 'Stop the reminder on this board (admins)' })
  @RequireRole('admin')
  async off(ctx: CommandContext) {
    await ctx.session(Rounds).update((round) => {
      round.on = false;
    });
    return 'The standup reminder is off for this board.';
  }

  @Subcommand({ name: 'summary', description: 'The updates given since the last reminder' })
  async summary(ctx: CommandContext) {
    const { updates } = await ctx.session(Rounds).get();
    return updates.length === 0 ? 'No updates yet. Write !standup to give yours.' : updates.join('\n');
  }
}
