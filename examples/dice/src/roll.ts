import { Command, type CommandContext, Option } from '@boardbot/core';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Dice } from './dice.js';

/** How several dice are shown. */
export const ROLL_STYLES = ['sum', 'list'] as const;

/**
 * Options of `/roll`. The platform checks types, bounds and choices before the bot sees an
 * invocation (they are registered from these decorators); the bot checks them again.
 */
export class RollOptions {
  @Option({ description: 'Sides on each die (2 to 1000)' })
  @IsOptional()
  @IsInt()
  @Min(2)
  @Max(1000)
  sides = 6;

  @Option({ description: 'How many dice (1 to 20)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  count = 1;

  @Option({ description: 'Show the total or every die' })
  @IsOptional()
  @IsIn(ROLL_STYLES)
  style: (typeof ROLL_STYLES)[number] = 'sum';
}

/** `/roll [sides] [count] [style]`: rolls dice and shows the total or each die. */
@Command({ name: 'roll', description: 'Roll dice', options: RollOptions })
export class Roll {
  constructor(private readonly dice: Dice) {}

  run(_ctx: CommandContext<RollOptions>, { sides, count, style }: RollOptions): string {
    const rolls = Array.from({ length: count }, () => this.dice.roll(sides));
    if (count === 1) return `🎲 You rolled **${rolls[0]}** (d${sides})`;
    if (style === 'list') return `🎲 You rolled ${count}d${sides}: ${rolls.map((r) => `**${r}**`).join(', ')}`;
    const total = rolls.reduce((a, b) => a + b, 0);
    return `🎲 You rolled **${total}** (${count}d${sides}: ${rolls.join(' + ')})`;
  }
}
