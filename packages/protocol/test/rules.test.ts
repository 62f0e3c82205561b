import {
  type CommandDefinition,
  type CommandOption,
  commandSetIssues,
  embedTextLength,
  LIMITS,
  messageBodyIssues,
} from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

describe('messageBodyIssues', () => {
  it('needs content or an embed', () => {
    expect(messageBodyIssues({})).toHaveLength(1);
    expect(messageBodyIssues({ content: '' })).toHaveLength(1);
    expect(messageBodyIssues({ content: '', embeds: [] })).toHaveLength(1);
    expect(messageBodyIssues({ content: 'hi' })).toEqual([]);
    expect(messageBodyIssues({ embeds: [{ title: 'only an embed' }] })).toEqual([]);
  });

  it('rejects an empty embed object', () => {
    expect(messageBodyIssues({ content: 'x', embeds: [{}] })).toEqual([
      { path: '/embeds/0', message: expect.any(String) },
    ]);
  });

  it('bounds the text of all embeds together at 6000 characters', () => {
    const big = { description: 'x'.repeat(4000) };
    expect(embedTextLength([big, { title: 'y'.repeat(200), fields: [{ name: 'n', value: 'v' }] }])).toBe(4202);
    expect(messageBodyIssues({ embeds: [big, { description: 'x'.repeat(2000) }] })).toEqual([]);
    expect(messageBodyIssues({ embeds: [big, { description: 'x'.repeat(2001) }] })[0]?.path).toBe('/embeds');
    expect(LIMITS.embedTotalText).toBe(6000);
  });
});

describe('commandSetIssues', () => {
  const roll = {
    name: 'roll',
    description: 'Roll',
    options: [{ name: 'sides', description: 'n', type: 'integer' as const }],
  };

  it('accepts a valid set', () => {
    expect(commandSetIssues([roll, { name: 'ping', description: 'Ping' }])).toEqual([]);
  });

  it('rejects duplicate command and option names', () => {
    expect(commandSetIssues([roll, roll])[0]?.path).toBe('/1/name');
    const dup = { ...roll, options: [...roll.options, ...roll.options] };
    expect(commandSetIssues([dup])[0]?.path).toBe('/0/options/1/name');
  });

  it('rejects bounds that contradict each other or the option type', () => {
    const opt = (o: Omit<CommandOption, 'name' | 'description'>): CommandDefinition[] => [
      { name: 'c', description: 'd', options: [{ name: 'o', description: 'd', ...o }] },
    ];
    expect(commandSetIssues(opt({ type: 'integer', min_value: 5, max_value: 1 }))).toHaveLength(1);
    expect(commandSetIssues(opt({ type: 'string', min_length: 5, max_length: 1 }))).toHaveLength(1);
    expect(commandSetIssues(opt({ type: 'string', min_value: 1 }))).toHaveLength(1);
    expect(commandSetIssues(opt({ type: 'boolean', max_length: 3 }))).toHaveLength(1);
    expect(commandSetIssues(opt({ type: 'integer', choices: [{ name: 'a', value: 'a' }] }))).toHaveLength(1);
    expect(commandSetIssues(opt({ type: 'integer', choices: [{ name: 'a', value: 1.5 }] }))).toHaveLength(1);
    expect(commandSetIssues(opt({ type: 'string', choices: [{ name: 'a', value: 'a' }] }))).toEqual([]);
  });

  it('rejects a required option after an optional one', () => {
    const c = {
      name: 'c',
      description: 'd',
      options: [
        { name: 'a', description: 'd', type: 'string' as const },
        { name: 'b', description: 'd', type: 'string' as const, required: true },
      ],
    };
    expect(commandSetIssues([c])[0]?.path).toBe('/0/options/1/required');
  });

  it('rejects subcommands mixed with plain options, and options on a non-subcommand', () => {
    const mixed = {
      name: 'poll',
      description: 'd',
      options: [
        {
          name: 'new',
          description: 'd',
          type: 'subcommand' as const,
          options: [{ name: 'q', description: 'd', type: 'string' as const }],
        },
        { name: 'x', description: 'd', type: 'string' as const },
      ],
    };
    expect(commandSetIssues([mixed])[0]?.path).toBe('/0/options');
    const leafWithOptions = {
      name: 'c',
      description: 'd',
      options: [{ name: 'x', description: 'd', type: 'string' as const, options: [] }],
    };
    expect(commandSetIssues([leafWithOptions])[0]?.path).toBe('/0/options/0/options');
  });
});

describe('open option values (unknown keys kept verbatim)', () => {
  const nested = (depth: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };
  const withExtra = (extra: unknown, where: 'option' | 'choice' | 'sub' = 'option'): CommandDefinition[] => {
    const leaf = { name: 'o', description: 'd', type: 'string' as const };
    const option =
      where === 'option'
        ? { ...leaf, extra }
        : where === 'choice'
          ? { ...leaf, choices: [{ name: 'a', value: 'a', extra }] }
          : { name: 's', description: 'd', type: 'subcommand' as const, options: [{ ...leaf, extra }] };
    return [{ name: 'c', description: 'd', options: [option] }];
  };

  it(`accepts values nested up to ${LIMITS.openOptionValueDepth} levels`, () => {
    expect(commandSetIssues(withExtra(nested(LIMITS.openOptionValueDepth)))).toEqual([]);
    expect(commandSetIssues(withExtra([[['x']]]))).toEqual([]);
  });

  it('refuses deeper values on options, choices and sub-options, at any depth without overflowing', () => {
    expect(commandSetIssues(withExtra(nested(LIMITS.openOptionValueDepth + 1)))).toEqual([
      { path: '/0/options/0/extra', message: expect.stringContaining('levels of nesting') },
    ]);
    expect(commandSetIssues(withExtra(nested(100_000), 'choice'))[0]?.path).toBe('/0/options/0/choices/0/extra');
    expect(commandSetIssues(withExtra(nested(100_000), 'sub'))[0]?.path).toBe('/0/options/0/options/0/extra');
  });

  it(`refuses more than ${LIMITS.openOptionBytes} bytes of open values in one command`, () => {
    expect(commandSetIssues(withExtra('x'.repeat(LIMITS.openOptionBytes - 100)))).toEqual([]);
    expect(commandSetIssues(withExtra('é'.repeat(LIMITS.openOptionBytes / 2)))).toEqual([
      { path: '/0/options', message: expect.stringContaining(`${LIMITS.openOptionBytes} bytes`) },
    ]);
  });
});
