import { Command, createBot, Inject, Injectable } from '@boardbot/core';
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
  it('injects by a static inject list, with no decorator metadata at all (tsx, esbuild)', () => {
    class Plain {
      static inject = [Dice];
      constructor(readonly dice: Dice) {}
    }
    expect(Reflect.getMetadata('design:paramtypes', Plain)).toBeUndefined();
    expect(new Container([Dice, Plain]).get(Plain).dice).toBeInstanceOf(Dice);
  });

  it('injects by @Inject(Token) when design:paramtypes is missing, as under tsx or esbuild', () => {
    class Marked {
      constructor(@Inject(Dice) readonly dice: Dice) {}
    }
    // What tsx and esbuild produce: the parameter decorator runs, but no type is recorded.
    Reflect.deleteMetadata('design:paramtypes', Marked);
    expect(new Container([Dice, Marked]).get(Marked).dice).toBeInstanceOf(Dice);
  });

  it('says to use @Inject or a static inject list when a constructor has no metadata', () => {
    class Bare {
      constructor(readonly dice: Dice) {}
    }
    expect(() => new Container([Dice, Bare]).get(Bare)).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_MISSING_METADATA',
        message: expect.stringContaining('@Inject(Token)'),
      }),
    );
  });

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
