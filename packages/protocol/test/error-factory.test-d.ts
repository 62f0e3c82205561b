import { BoardbotError, createErrorFactory, type ErrorArgs } from '@boardbot/protocol';
import { describe, expectTypeOf, it } from 'vitest';

const ERRORS = createErrorFactory({
  BOARDBOT_A: { message: (what: string) => what },
  BOARDBOT_B: { message: (limit: number, unit: string) => `${limit} ${unit}` },
});

describe('the error factory types', () => {
  it('types the code list by the catalogue', () => {
    expectTypeOf(ERRORS.codes).toEqualTypeOf<readonly ('BOARDBOT_A' | 'BOARDBOT_B')[]>();
  });

  it("makes a base class check each code's template arguments", () => {
    abstract class Base extends BoardbotError {
      constructor(...[code, args]: ErrorArgs<typeof ERRORS>) {
        super(code, ERRORS.message(code, args));
      }
    }
    class Good extends Base {
      constructor() {
        super('BOARDBOT_B', [3, 'bytes']);
      }
    }
    class Bad extends Base {
      constructor() {
        // @ts-expect-error: BOARDBOT_B's template takes (number, string)
        super('BOARDBOT_B', ['3']);
      }
    }
    class Unknown extends Base {
      constructor() {
        // @ts-expect-error: not a code of the catalogue
        super('BOARDBOT_C', ['x']);
      }
    }
    expectTypeOf<Good>().toExtend<BoardbotError>();
    expectTypeOf<Bad | Unknown>().toExtend<Base>();
  });
});
