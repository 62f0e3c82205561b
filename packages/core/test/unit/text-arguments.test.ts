import { Option } from '@boardbot/core';
import { deriveOptions, readArguments, resolveTextCommandOptions, tokenize } from '@boardbot/core/internal';
import { IsInt, IsOptional } from 'class-validator';
import { describe, expect, it } from 'vitest';

const values = (line: string) => {
  const t = tokenize(line);
  if (!t.ok) throw new Error(t.problem);
  return t.tokens.map((x) => x.value);
};

describe('tokenize (how a text invocation is split)', () => {
  it('splits on white space; quotes group; a backslash takes the next character as it is', () => {
    expect(values('  a  b\tc ')).toEqual(['a', 'b', 'c']);
    expect(values(`"a b" 'c d' "x"'y'`)).toEqual(['a b', 'c d', 'xy']);
    expect(values('a\\ b \\"c\\\\')).toEqual(['a b', '"c\\']);
    // In double quotes only \" and \\ are escapes; single quotes take everything as it is.
    expect(values(`"\\"q\\" \\n" '\\"'`)).toEqual(['"q" \\n', '\\"']);
  });

  it('opens a quote only at the start of an argument or of a named value', () => {
    expect(values(`don't it's`)).toEqual(["don't", "it's"]);
    expect(values('say"hi"')).toEqual(['say"hi"']);
    const named = tokenize('text:"buy milk" "a:b" a\\:b');
    expect(named.ok && named.tokens.map((t) => t.named)).toEqual([
      { name: 'text', value: 'buy milk' },
      undefined,
      undefined,
    ]);
  });

  it('says which quote is not closed', () => {
    expect(tokenize('a "bc d')).toEqual({ ok: false, problem: 'the " quote at ""bc d" is not closed' });
  });
});

describe('readArguments (which option each argument goes to)', () => {
  class Opts {
    @Option({ description: 'a' }) @IsOptional() @IsInt() count?: number;
    @Option({ description: 'b' }) word!: string;
  }
  const options = deriveOptions(Opts);
  const read = (line: string) => {
    const t = tokenize(line);
    if (!t.ok) throw new Error(t.problem);
    return readArguments(t.tokens, line, options, '!x');
  };

  it('fills the options in the order of the class, skipping those given by name', () => {
    expect(read('3 hi')).toEqual({ ok: true, values: { count: '3', word: 'hi' } });
    expect(read('word:hi 3')).toEqual({ ok: true, values: { word: 'hi', count: '3' } });
    expect(read('hi')).toEqual({ ok: true, values: { count: 'hi' } });
  });

  it('refuses a name given twice, unknown names and arguments left over', () => {
    expect(read('count:1 count:2')).toEqual({ ok: false, problems: ['count is given twice'] });
    expect(read('1 a b other:c')).toEqual({
      ok: false,
      problems: [
        'other is not an option of !x (its options are count, word)',
        'too many arguments: "b" (!x takes 2 arguments; quote an argument with spaces)',
      ],
    });
  });
});

describe('resolveTextCommandOptions', () => {
  it('defaults to the prefix ! and to the commands marked text: true, and refuses a prefix nobody can type', () => {
    const rest = { editable: false, suggest: true };
    expect(resolveTextCommandOptions()).toEqual({ prefix: '!', all: false, ...rest });
    expect(resolveTextCommandOptions({ prefix: '?', all: true })).toEqual({ prefix: '?', all: true, ...rest });
    for (const prefix of ['', ' ', '! '])
      expect(() => resolveTextCommandOptions({ prefix })).toThrow(
        expect.objectContaining({ code: 'BOARDBOT_INVALID_CONFIG' }),
      );
    // `editable` is a boolean or `{ deleteWithMessage }`: anything else names the fix.
    expect(resolveTextCommandOptions({ editable: { deleteWithMessage: false } }).editable).toEqual({
      deleteWithMessage: false,
    });
    expect(() => resolveTextCommandOptions({ editable: 'yes' as never })).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_INVALID_CONFIG',
        message: expect.stringContaining('textCommands.editable must be true, false or { deleteWithMessage: boolean }'),
      }),
    );
  });
});
