/**
 * The dice: a provider the commands get by constructor injection, so a test can load them (a
 * `random` that always gives the same number) instead of patching `Math.random`.
 */
export class Dice {
  /** @param random - a number in [0, 1), like `Math.random` @defaultValue `Math.random` */
  constructor(private readonly random: () => number = Math.random) {}

  /** One roll of a die with `sides` sides: 1..sides. */
  roll(sides: number): number {
    return 1 + Math.floor(this.random() * sides);
  }

  /** One of `items`, picked at random. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }
}
