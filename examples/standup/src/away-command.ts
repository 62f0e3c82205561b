import { Command, type CommandContext, Option } from '@boardbot/core';
import { IsNotEmpty, MaxLength } from 'class-validator';
import { Rounds } from './round.js';

class AwayOptions {
  // `rest`: typed as text, the reason is the rest of the line, no quotes needed.
  @Option({ description: 'Why you skip this standup', rest: true })
  @IsNotEmpty()
  @MaxLength(200)
  reason!: string;
}

/**
 * `!away at the dentist` (or `/away`): skip this standup, with a reason, which joins the summary.
 * Editable: fixing the message (`!away at the dentsit`) runs it again, which replaces the reason and
 * edits the answer, instead of a second answer.
 */
@Command({
  name: 'away',
  description: 'Skip this standup, with a reason',
  options: AwayOptions,
  text: true,
  editable: true,
})
export class AwayCommand {
  async run(ctx: CommandContext<AwayOptions>, { reason }: AwayOptions) {
    const name = ctx.user.display_name;
    // One away line per person: a run again (an edit, or a second !away) replaces the reason.
    await ctx.session(Rounds).update((round) => {
      round.updates = [...round.updates.filter((u) => !u.startsWith(`${name}: away (`)), `${name}: away (${reason})`];
    });
    return `Noted, ${name}: away for this standup (${reason}).`;
  }
}
