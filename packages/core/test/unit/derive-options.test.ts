import { Option } from '@boardbot/core';
import { deriveOptions } from '@boardbot/core/internal';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNegative,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { describe, expect, it } from 'vitest';

const options = (cls: new () => object) => deriveOptions(cls).map((d) => d.option);

describe('option schema derivation', () => {
  it('maps design:type to the option type, and @IsInt makes a number an integer', () => {
    class O {
      @Option({ description: 'n' }) n!: number;
      @Option({ description: 'i' }) @IsInt() i!: number;
      @Option({ description: 's' }) s!: string;
      @Option({ description: 'b' }) b!: boolean;
    }
    expect(options(O).map((o) => [o.name, o.type])).toEqual([
      ['n', 'number'],
      ['i', 'integer'],
      ['s', 'string'],
      ['b', 'boolean'],
    ]);
  });

  it('takes an explicit type over inference (user and board are always explicit)', () => {
    class O {
      @Option({ description: 'who', type: 'user' }) who!: string;
      @Option({ description: 'where', type: 'board' }) where!: string;
      @Option({ description: 'count', type: 'integer' }) count!: number;
    }
    expect(options(O).map((o) => o.type)).toEqual(['user', 'board', 'integer']);
  });

  it('infers an unannotated property (emitted as Object) from validators, then from its default', () => {
    class O {
      @Option({ description: 'a' }) @IsInt() a = 6;
      @Option({ description: 'b' }) @IsNumber() b = 1.5;
      @Option({ description: 'c' }) @IsString() c = 'x';
      @Option({ description: 'd' }) @IsBoolean() d = false;
      @Option({ description: 'e' }) e = 'plain';
      @Option({ description: 'f' }) f = 3;
    }
    expect(options(O).map((o) => o.type)).toEqual(['integer', 'number', 'string', 'boolean', 'string', 'number']);
  });

  it('@Min/@Max give min_value/max_value; @IsPositive/@IsNegative bound integers; the tightest wins', () => {
    class O {
      @Option({ description: 'a' }) @IsInt() @Min(2) @Max(1000) a!: number;
      @Option({ description: 'b' }) @IsInt() @IsPositive() @Max(10) @Max(5) b!: number;
      @Option({ description: 'c' }) @IsInt() @IsNegative() c!: number;
      @Option({ description: 'd' }) @Min(0.5) d!: number;
    }
    const [a, b, c, d] = options(O);
    expect(a).toMatchObject({ min_value: 2, max_value: 1000 });
    expect(b).toMatchObject({ min_value: 1, max_value: 5 });
    expect(c).toMatchObject({ max_value: -1 });
    expect(c).not.toHaveProperty('min_value');
    expect(d).toMatchObject({ type: 'number', min_value: 0.5 });
  });

  it('@Length/@MinLength/@MaxLength/@IsNotEmpty give min_length/max_length on strings', () => {
    class O {
      @Option({ description: 'a' }) @Length(2, 20) a!: string;
      @Option({ description: 'b' }) @MinLength(3) @MaxLength(9) b!: string;
      @Option({ description: 'c' }) @IsNotEmpty() c!: string;
      @Option({ description: 'd' }) @Length(0) d!: string;
    }
    const [a, b, c, d] = options(O);
    expect(a).toMatchObject({ min_length: 2, max_length: 20 });
    expect(b).toMatchObject({ min_length: 3, max_length: 9 });
    expect(c).toMatchObject({ min_length: 1 });
    expect(d).not.toHaveProperty('min_length');
  });

  it('gives every string option without choices a maximum length: 1000 unless its class gives one', () => {
    class O {
      @Option({ description: 'plain' }) plain!: string;
      @Option({ description: 'longer' }) @MaxLength(4000) longer!: string;
      @Option({ description: 'at least' }) @MinLength(3) atLeast!: string;
      @Option({ description: 'picked' }) @IsIn(['rock', 'paper']) picked!: string;
      @Option({ description: 'count' }) count!: number;
    }
    const [plain, longer, atLeast, picked, count] = options(O);
    expect(plain).toMatchObject({ max_length: 1000 });
    expect(longer).toMatchObject({ max_length: 4000 });
    expect(atLeast).toMatchObject({ min_length: 3, max_length: 1000 });
    expect(picked).not.toHaveProperty('max_length');
    expect(count).not.toHaveProperty('max_length');
  });

  it('refuses a minimum length above the default maximum without a maximum of its own', () => {
    class O {
      @Option({ description: 'essay' }) @MinLength(1500) essay!: string;
    }
    expect(() => options(O)).toThrow(
      'O.essay has a minimum length of 1500, above the default maximum of 1000 characters: give it a @MaxLength of its own.',
    );
  });

  it('@IsIn gives choices; explicit choices take precedence', () => {
    class O {
      @Option({ description: 'a' }) @IsIn(['rock', 'paper']) a!: string;
      @Option({ description: 'b' }) @IsInt() @IsIn([4, 6]) b!: number;
      @Option({ description: 'c', choices: [{ name: 'Rock', value: 'rock' }] }) @IsIn(['rock']) c!: string;
    }
    const [a, b, c] = options(O);
    expect(a?.choices).toEqual([
      { name: 'rock', value: 'rock' },
      { name: 'paper', value: 'paper' },
    ]);
    expect(b?.choices).toEqual([
      { name: '4', value: 4 },
      { name: '6', value: 6 },
    ]);
    expect(c?.choices).toEqual([{ name: 'Rock', value: 'rock' }]);
  });

  it('@IsOptional or a default makes an option optional; required options come first', () => {
    class O {
      @Option({ description: 'a' }) @IsOptional() a?: string;
      @Option({ description: 'b' }) b = 6;
      @Option({ description: 'c' }) c!: string;
      @Option({ description: 'd' }) d!: number;
    }
    expect(options(O).map((o) => [o.name, o.required ?? false])).toEqual([
      ['c', true],
      ['d', true],
      ['a', false],
      ['b', false],
    ]);
  });

  it('uses the wire name and keeps the property for conversion', () => {
    class O {
      @Option({ description: 'a', name: 'max-count' }) @IsInt() maxCount!: number;
    }
    expect(deriveOptions(O)).toEqual([
      {
        option: { name: 'max-count', description: 'a', type: 'integer', required: true },
        property: 'maxCount',
        source: 'O.maxCount',
        position: 0,
        rest: false,
      },
    ]);
  });

  it('keeps the declaration order for text arguments, and allows rest only on the last option, a string', () => {
    class Ordered {
      @Option({ description: 'a' }) @IsOptional() first?: string;
      @Option({ description: 'b', rest: true }) second!: string;
    }
    const derived = deriveOptions(Ordered);
    expect(derived.map((d) => [d.option.name, d.position, d.rest])).toEqual([
      ['second', 1, true],
      ['first', 0, false],
    ]);
    class NotLast {
      @Option({ description: 'a', rest: true }) first!: string;
      @Option({ description: 'b' }) second!: string;
    }
    expect(() => deriveOptions(NotLast)).toThrow(/NotLast\.first has @Option\(\{ rest: true \}\).*move it last/);
    class NotText {
      @Option({ description: 'a', rest: true }) @IsInt() count!: number;
    }
    expect(() => deriveOptions(NotText)).toThrow(expect.objectContaining({ code: 'BOARDBOT_INVALID_OPTION' }));
  });

  it('names a camelCase property in snake_case unless a name is given (issue 30)', () => {
    class O {
      @Option({ description: 'a' }) dueDate!: string;
      @Option({ description: 'b' }) maxHP!: number;
      @Option({ description: 'c' }) URLPath!: string;
      @Option({ description: 'd' }) sides2Roll!: number;
      @Option({ description: 'e', name: 'when' }) remindAt!: string;
    }
    expect(deriveOptions(O).map((d) => [d.property, d.option.name])).toEqual([
      ['dueDate', 'due_date'],
      ['maxHP', 'max_hp'],
      ['URLPath', 'url_path'],
      ['sides2Roll', 'sides2_roll'],
      ['remindAt', 'when'],
    ]);
  });

  it('ignores bounds that do not apply to the type', () => {
    class O {
      @Option({ description: 'a' }) @MinLength(2) n!: number;
      @Option({ description: 'b' }) @Min(2) s!: string;
    }
    const [n, s] = options(O);
    expect(n).not.toHaveProperty('min_length');
    expect(s).not.toHaveProperty('min_value');
  });

  it('detects missing design:type (esbuild/tsx) and says how to fix it', () => {
    // What esbuild emits: the decorator runs, but no design:type is ever defined.
    class O {
      n!: number;
    }
    Option({ description: 'n' })(O.prototype, 'n');
    expect(() => deriveOptions(O)).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_MISSING_METADATA',
        message: expect.stringMatching(
          /O\.n .*emitDecoratorMetadata.*esbuild and tsx.*@Option\(\{ type: 'integer' \}\)/s,
        ),
      }),
    );
  });

  it('an explicit type makes the missing metadata harmless', () => {
    class O {
      n!: number;
    }
    Option({ description: 'n', type: 'integer' })(O.prototype, 'n');
    expect(options(O)).toEqual([{ name: 'n', description: 'n', type: 'integer', required: true }]);
  });

  it('says which property it cannot infer (an interface or union type) and how to fix it', () => {
    class O {
      @Option({ description: 'x' }) x!: string | number;
    }
    expect(() => deriveOptions(O)).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_INVALID_OPTION',
        message: expect.stringMatching(/O\.x .*Object.*type:/),
      }),
    );
  });

  it('needs an options class constructible without arguments', () => {
    class O {
      @Option({ description: 'x' }) x!: string;
      constructor(required: string) {
        if (!required) throw new Error('needs an argument');
      }
    }
    expect(() => deriveOptions(O)).toThrow(/constructible without arguments/);
  });
});
