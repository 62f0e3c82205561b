import { Option } from '@boardbot/core';
import { deriveOptions, optionsJsonSchema } from '@boardbot/core/internal';
import { IsIn, IsInt, IsOptional, Length, Max, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';

class BanOptions {
  @Option({ description: 'Days' }) @IsOptional() @IsInt() @Min(1) @Max(30) days = 1;
  @Option({ description: 'Who to ban', type: 'user' }) who!: string;
  @Option({ description: 'Why' }) @Length(3, 200) reason!: string;
  @Option({ description: 'Where', type: 'board' }) @IsOptional() board?: string;
  @Option({ description: 'How' }) @IsOptional() @IsIn(['soft', 'hard']) mode?: string;
}

describe('a command tool input schema', () => {
  const derived = deriveOptions(BanOptions);

  it('has one property per registered option, named, typed and bounded as registered', () => {
    const schema = optionsJsonSchema(derived);
    expect(Object.keys(schema.properties)).toEqual(derived.map((d) => d.option.name));
    expect(schema).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['who', 'reason'],
      properties: {
        who: { type: 'string', description: 'Who to ban (a user id, username or display name)' },
        reason: { type: 'string', description: 'Why', minLength: 3, maxLength: 200 },
        days: { type: 'integer', description: 'Days', minimum: 1, maximum: 30 },
        board: { type: 'string', description: 'Where (a board id or name)' },
        mode: { type: 'string', description: 'How', enum: ['soft', 'hard'] },
      },
    });
  });

  it('requires exactly the options the registered command requires', () => {
    const required = derived.filter((d) => d.option.required).map((d) => d.option.name);
    expect(optionsJsonSchema(derived).required).toEqual(required);
  });
});
