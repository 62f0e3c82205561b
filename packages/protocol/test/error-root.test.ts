import {
  BOARDBOT_ERROR_BRAND,
  BoardbotError,
  type BoardbotErrorOptions,
  causeCode,
  createErrorFactory,
  type ErrorArgs,
  isBoardbotError,
} from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

// A package's errors as the packages declare theirs: a catalogue, a base class, subclasses.
const SAMPLE_ERRORS = createErrorFactory({
  BOARDBOT_SAMPLE_CLOSED: { message: (what: string) => `${what}: the sample is closed; create a new one.` },
  BOARDBOT_SAMPLE_LIMIT: { fatal: true, message: (limit: number, unit: string) => `Over ${limit} ${unit}.` },
});

abstract class SampleError extends BoardbotError {
  declare readonly code: (typeof SAMPLE_ERRORS.codes)[number];
  constructor(...[code, args, options]: ErrorArgs<typeof SAMPLE_ERRORS, [options?: BoardbotErrorOptions]>) {
    super(code, SAMPLE_ERRORS.message(code, args), options);
  }
}

class SampleClosedError extends SampleError {
  constructor(what: string, cause?: unknown) {
    super('BOARDBOT_SAMPLE_CLOSED', [what], { cause });
  }
}

class SampleLimitError extends SampleError {
  constructor(limit: number) {
    super('BOARDBOT_SAMPLE_LIMIT', [limit, 'bytes']);
  }
}

describe('createErrorFactory', () => {
  it('lists the codes in the order they are declared, and keeps each code’s traits', () => {
    expect(SAMPLE_ERRORS.codes).toEqual(['BOARDBOT_SAMPLE_CLOSED', 'BOARDBOT_SAMPLE_LIMIT']);
    expect(SAMPLE_ERRORS.spec('BOARDBOT_SAMPLE_LIMIT').fatal).toBe(true);
  });

  it("builds each error's message from its code's template and the class's arguments", () => {
    expect(new SampleClosedError('send()').message).toBe('send(): the sample is closed; create a new one.');
    expect(new SampleLimitError(64)).toMatchObject({ code: 'BOARDBOT_SAMPLE_LIMIT', message: 'Over 64 bytes.' });
  });
});

describe('BoardbotError', () => {
  it('carries the code, the class name and the cause, and leaves the brand out of its fields', () => {
    const cause = new Error('socket hang up');
    const error = new SampleClosedError('send()', cause);
    expect(error).toMatchObject({ code: 'BOARDBOT_SAMPLE_CLOSED', name: 'SampleClosedError', cause });
    expect(Object.hasOwn(new SampleLimitError(1), 'cause')).toBe(false);
    expect((error as unknown as Record<symbol, unknown>)[BOARDBOT_ERROR_BRAND]).toBe(true);
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: 'SampleClosedError', code: 'BOARDBOT_SAMPLE_CLOSED' });
  });

  it('keeps instanceof a prototype check on subclasses, and a brand check on the root', () => {
    const limit = new SampleLimitError(1);
    expect(limit).toBeInstanceOf(BoardbotError);
    expect(limit).toBeInstanceOf(SampleError);
    expect(limit).not.toBeInstanceOf(SampleClosedError);
    expect(new Error('x')).not.toBeInstanceOf(BoardbotError);
  });
});

describe('isBoardbotError', () => {
  it('recognises an error of another copy of boardbot by its registered brand, and nothing else', () => {
    // What a second installed copy of a package throws: another class, the same registered brand.
    const brand = Symbol.for('boardbot.error');
    class ForeignRoot extends Error {
      readonly code = 'BOARDBOT_FOREIGN';
    }
    Object.defineProperty(ForeignRoot.prototype, brand, { value: true });
    const foreign = new ForeignRoot('from another copy');
    expect(isBoardbotError(foreign)).toBe(true);
    expect(foreign instanceof BoardbotError).toBe(true);
    expect(foreign instanceof SampleError).toBe(false);
    for (const other of [new Error('x'), { code: 'BOARDBOT_X' }, 'BOARDBOT_X', null, undefined]) {
      expect(isBoardbotError(other)).toBe(false);
      expect(other instanceof BoardbotError).toBe(false);
    }
  });
});

describe('causeCode', () => {
  it('names a cause by the first code along its chain, never by its message', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(causeCode(new TypeError('fetch failed', { cause: refused }))).toBe('ECONNREFUSED');
    expect(causeCode(refused)).toBe('ECONNREFUSED');
    expect(causeCode(new TypeError('Headers.append: "Bearer sk-1" is an invalid header value.'))).toBeUndefined();
    expect(causeCode(Object.assign(new Error('x'), { code: 'Bearer sk-1 was refused' }))).toBeUndefined();
    expect(causeCode('ECONNREFUSED')).toBeUndefined();
  });
});
