import { Command, type CommandContext, defineBot, Injectable, Option } from '@boardbot/core';
import { IsInt, IsOptional, Min } from 'class-validator';

// A bot module as `npm create boardbot` lays one out: its definition is its default export, with
// two providers; the harness's tests fake one of them and keep the other.

/** Rolls a fair die (the tests fake it). */
@Injectable()
export class Dice {
  roll(sides: number): number {
    return 1 + Math.floor(Math.random() * sides);
  }
}

/** How the bot words a roll (the tests keep it). */
@Injectable()
export class Wording {
  rolled(n: number): string {
    return `The die says ${n}`;
  }
}

class RollOptions {
  @Option({ description: 'Sides' }) @IsOptional() @IsInt() @Min(2) sides = 6;
}

@Command({ name: 'roll', description: 'Rolls a die', options: RollOptions })
export class Roll {
  constructor(
    private readonly dice: Dice,
    private readonly wording: Wording,
  ) {}

  run(_ctx: CommandContext<RollOptions>, { sides }: RollOptions) {
    return this.wording.rolled(this.dice.roll(sides));
  }
}

export default defineBot({ handlers: [Roll], providers: [Dice, Wording] });
