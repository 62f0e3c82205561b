import { Command, createBot, Injectable } from '@boardbot/core';
import { Container } from '@boardbot/core/internal';
import { silentLogger } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

class Dice {
  roll(sides: number) {
    return sides;
  }
}

@Injectable()
class Table {
  constructor(readonly dice: Dice) {}
}

describe('Container', () => {
  it('builds one instance per class and injects constructor parameters', () => {
    const c = new Container([Dice, Table]);
    const table = c.get(Table);
    expect(table.dice).toBeInstanceOf(Dice);
    expect(c.get(Table)).toBe(table);
    expect(c.get(Dice)).toBe(table.dice);
  });

  it('uses a given value for a class', () => {
    const fake = { roll: () => 4 };
    const c = new Container([{ provide: Dice, useValue: fake }, Table]);
    expect(c.get(Table).dice).toBe(fake);
  });

  it('names the missing provider and how to add it', () => {
    expect(() => new Container([Table]).get(Table)).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_MISSING_PROVIDER',
        message:
          'Table needs Dice (constructor parameter 1), which is not a provider: add it to createBot({ providers: [Dice] }).',
      }),
    );
  });

  it('detects a parameter typed by an interface', () => {
    interface Clock {
      now(): number;
    }
    @Injectable()
    class UsesInterface {
      constructor(readonly clock: Clock) {}
    }
    expect(() => new Container([]).get(UsesInterface)).toThrow(/parameter 1 has no class type/);
  });

  it('detects a class without design:paramtypes and says how to fix it', () => {
    class Undecorated {
      constructor(readonly dice: Dice) {}
    }
    expect(() => new Container([Dice]).get(Undecorated)).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_MISSING_METADATA',
        message: expect.stringMatching(/emitDecoratorMetadata.*@Injectable\(\)/s),
      }),
    );
  });

  it('reports a dependency cycle with its chain', () => {
    class A {
      constructor(readonly b: unknown) {}
    }
    class B {
      constructor(readonly a: unknown) {}
    }
    // What TypeScript emits for two providers that ask for each other.
    Reflect.defineMetadata('design:paramtypes', [B], A);
    Reflect.defineMetadata('design:paramtypes', [A], B);
    expect(() => new Container([A, B]).get(A)).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_CIRCULAR_DEPENDENCY',
        message: expect.stringContaining('A -> B -> A'),
      }),
    );
  });

  it('createBot fails on a missing provider before any request', () => {
    @Command({ name: 'roll', description: 'Roll' })
    class Roll {
      constructor(readonly dice: Dice) {}
      run() {}
    }
    expect(() => createBot({ token: 't', handlers: [Roll], logger: silentLogger, handleSignals: false })).toThrow(
      /Roll needs Dice/,
    );
  });

  it('createBot needs a token and says where it comes from', () => {
    expect(() => createBot({ token: '', handlers: [] })).toThrow(
      expect.objectContaining({ code: 'BOARDBOT_INVALID_CONFIG', message: expect.stringContaining('BOARDBOT_TOKEN') }),
    );
  });
});
