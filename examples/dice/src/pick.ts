import { Command, type CommandContext, Option } from '@boardbot/core';
import { IsString, Length, Matches } from 'class-validator';
import { Dice } from './dice.js';

/**
 * Options of `/pick`. The length is registered, so the platform checks it; the pattern cannot be
 * registered, so the bot checks it and tells the person what is wrong.
 */
export class PickOptions {
  @Option({ description: 'Things to pick from, separated by commas' })
  @IsString()
  @Length(3, 300)
  // Each item: spaces, then a character that is neither a space nor a comma, then anything but a comma.
  // Where each part ends is never in doubt, so no input makes it backtrack (the start-time check).
  @Matches(/^\s*[^,\s][^,]*(,\s*[^,\s][^,]*)+$/, {
    message: '$property must list at least two things, separated by commas (pizza, sushi)',
  })
  from!: string;
}

/** `/pick from`: picks one of a comma-separated list. */
@Command({ name: 'pick', description: 'Pick one thing at random', options: PickOptions })
export class Pick {
  constructor(private readonly dice: Dice) {}

  run(_ctx: CommandContext<PickOptions>, { from }: PickOptions): string {
    const items = from
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    return `👉 ${this.dice.pick(items)}`;
  }
}
