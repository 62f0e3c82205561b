import { Command, type CommandContext, Option } from '@boardbot/core';
import { IsIn, IsOptional } from 'class-validator';
import { Dice } from './dice.js';

const SIDES = ['heads', 'tails'] as const;

/** Options of `/coin`: an optional call, one of two choices. */
export class CoinOptions {
  // An optional union property is emitted as `Object`: the type is given explicitly.
  @Option({ description: 'Call it before it lands', type: 'string' })
  @IsOptional()
  @IsIn(SIDES)
  call?: (typeof SIDES)[number];
}

/** `/coin [call]`: flips a coin, and says whether the call was right. */
@Command({ name: 'coin', description: 'Flip a coin', options: CoinOptions })
export class Coin {
  constructor(private readonly dice: Dice) {}

  run(_ctx: CommandContext<CoinOptions>, { call }: CoinOptions): string {
    const side = this.dice.pick(SIDES);
    const shown = side === 'heads' ? 'Heads' : 'Tails';
    if (call === undefined) return `🪙 ${shown}!`;
    return call === side ? `🪙 ${shown}, you called it!` : `🪙 ${shown}, not this time.`;
  }
}
