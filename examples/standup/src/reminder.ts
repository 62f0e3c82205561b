import { Cron, Injectable, type ScheduleContext } from '@boardbot/core';
import { Rounds } from './round.js';
import { StandupConfig } from './standup-config.js';

/** The weekday reminder: on each board whose standup is on, a new round and a message that says so. */
@Injectable()
export class Reminder {
  constructor(private readonly config: StandupConfig) {}

  // Runs once per weekday across every instance of the bot, and once after a restart that missed it.
  @Cron('0 9 * * 1-5', { timezone: 'Europe/Berlin' })
  async remind(ctx: ScheduleContext) {
    for (const board of await ctx.rest.listBoards()) {
      const round = ctx.session(Rounds, { boardId: board.id });
      if (!(await round.get()).on) continue;
      await round.update((r) => {
        r.updates = [];
      });
      await ctx.send(board.id, this.config.reminder);
    }
  }
}
