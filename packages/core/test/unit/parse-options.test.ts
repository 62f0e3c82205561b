import { Option } from '@boardbot/core';
import { deriveOptions, parseOptions } from '@boardbot/core/internal';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Length, Max, Min, ValidateBy } from 'class-validator';
import { describe, expect, it } from 'vitest';

class RollOptions {
  @Option({ description: 'Sides' }) @IsOptional() @IsInt() @Min(2) @Max(1000) sides = 6;
  @Option({ description: 'Label', name: 'label-text' }) @Length(1, 5) label!: string;
  @Option({ description: 'Mode' }) @IsOptional() @IsIn(['fair', 'loaded']) mode?: string;
  @Option({ description: 'Loud' }) @IsOptional() loud?: boolean;
  @Option({ description: 'Shout' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value))
  shout?: string;
}
const derived = deriveOptions(RollOptions);
const parse = (raw: Record<string, string | number | boolean>) => parseOptions(RollOptions, derived, raw);

describe('parseOptions', () => {
  it('converts into an instance of the options class, keeping defaults for absent options', async () => {
    const result = await parse({ 'label-text': 'abc' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toBeInstanceOf(RollOptions);
    expect(result.value).toMatchObject({ sides: 6, label: 'abc' });
  });

  it('applies class-transformer decorators', async () => {
    const result = await parse({ 'label-text': 'abc', shout: 'hey' });
    expect(result.ok && result.value).toMatchObject({ shout: 'HEY' });
  });

  // Refusals differ only by their input and the lines that explain it.
  it.each<[behaviour: string, raw: Parameters<typeof parse>[0], problems: string[]]>([
    [
      'explains each violated constraint in one line naming the wire option',
      { sides: 5000, 'label-text': '', mode: 'weird' },
      [
        'sides must not be greater than 1000',
        'label-text must be longer than or equal to 1 characters',
        'mode must be one of the following values: fair, loaded',
      ],
    ],
    [
      'refuses a string past its maximum length before any validator runs',
      { sides: 5000, 'label-text': 'too long text', mode: 'weird' },
      ['label-text must be shorter than or equal to 5 characters'],
    ],
    [
      'takes decimal digits only for an integer (0x10, 1e2 and 0b101 are no integers)',
      { sides: '0x10', 'label-text': 'a' },
      ['sides must be an integer'],
    ],
    ['refuses 1e2 for an integer', { sides: '1e2', 'label-text': 'a' }, ['sides must be an integer']],
    ['refuses 0b101 for an integer', { sides: '0b101', 'label-text': 'a' }, ['sides must be an integer']],
    [
      'reports a missing required option and a wrongly typed value',
      { sides: 2.5, loud: 'yes' },
      ['label-text is required', 'sides must be an integer', 'loud must be true or false'],
    ],
  ])('%s', async (_behaviour, raw, problems) => {
    const result = await parse(raw);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(problems);
  });

  it('accepts numbers and booleans typed as text, as a form sends them', async () => {
    const result = await parse({ sides: '20', 'label-text': 'a', loud: 'true' });
    expect(result.ok && result.value).toMatchObject({ sides: 20, loud: true });
  });

  it('reads an integer given as decimal digits', async () => {
    expect(await parse({ sides: '16', 'label-text': 'a' })).toMatchObject({ ok: true, value: { sides: 16 } });
  });

  it("reads own values only: an option named constructor left out is absent, not Object's constructor", async () => {
    class Named {
      @Option({ description: 'A name', name: 'constructor' })
      @IsOptional()
      builder?: string;
    }
    const result = await parseOptions(Named, deriveOptions(Named), {});
    expect(result).toMatchObject({ ok: true, value: {} });
    expect(result.ok && (result.value as Named).builder).toBeUndefined();
  });

  it('runs no validator on a string longer than the default maximum (1000 characters)', async () => {
    const seen: number[] = [];
    class Free {
      @Option({ description: 'Any text' })
      @ValidateBy({ name: 'counted', validator: { validate: (value: string) => seen.push(value.length) > 0 } })
      text!: string;
    }
    const free = deriveOptions(Free);
    expect(free[0]?.option.max_length).toBe(1000);
    expect(await parseOptions(Free, free, { text: 'x'.repeat(1001) })).toMatchObject({
      ok: false,
      problems: ['text must be shorter than or equal to 1000 characters'],
    });
    expect(await parseOptions(Free, free, { text: 'x'.repeat(1000) })).toMatchObject({ ok: true });
    expect(seen).toEqual([1000]);
  });

  it('lists unknown options without failing', async () => {
    const result = await parse({ 'label-text': 'a', extra: 1 });
    expect(result).toMatchObject({ ok: true, unknown: ['extra'] });
  });

  it('a command without an options class gets an empty object', async () => {
    expect(await parseOptions(undefined, [], { x: 1 })).toEqual({ ok: true, value: {}, unknown: ['x'] });
  });
});
