import { checkInvocationOptions, type InvocationDirectory, type LeafOption } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

const ALICE = '6f1c2a1e-1b2c-4d3e-8f40-5a6b7c8d9e0f';
const directory: InvocationDirectory = { exists: (type, id) => type === 'user' && id === ALICE };
const option = (o: Omit<LeafOption, 'description'>): LeafOption => ({ description: 'd', ...o });

describe('checkInvocationOptions (the platform check of slash options, shared with text commands)', () => {
  const declared = [
    option({ name: 'sides', type: 'integer', required: true, min_value: 2, max_value: 100 }),
    option({ name: 'weight', type: 'number' }),
    option({ name: 'loud', type: 'boolean' }),
    option({ name: 'mood', type: 'string', choices: [{ name: 'calm', value: 'calm' }], max_length: 4 }),
    option({ name: 'who', type: 'user' }),
  ];

  it('converts values typed as text to their types', () => {
    const given = { sides: '20', weight: '1.5', loud: 'true', mood: 'calm', who: ALICE };
    expect(checkInvocationOptions(declared, given, directory)).toEqual({
      values: { sides: 20, weight: 1.5, loud: true, mood: 'calm', who: ALICE },
      issues: [],
    });
  });

  it('names each problem at /options/<name>: unknown, missing, type, bounds, choices, unknown ids', () => {
    const bad = checkInvocationOptions(
      declared,
      { extra: 1, weight: 'heavy', loud: 'yes', mood: 'angry', who: 'x' },
      directory,
    );
    expect(bad.issues).toEqual([
      { path: '/options/extra', message: 'Unknown option' },
      { path: '/options/sides', message: 'Required option is missing' },
      { path: '/options/weight', message: 'Expected a number' },
      { path: '/options/loud', message: 'Expected a boolean' },
      { path: '/options/mood', message: 'Expected at most 4 characters' },
      { path: '/options/who', message: 'Expected a user id' },
    ]);
    expect(checkInvocationOptions(declared, { sides: 101 }, directory).issues).toEqual([
      { path: '/options/sides', message: 'Expected at most 100' },
    ]);
    expect(checkInvocationOptions(declared, { sides: 2.5 }, directory).issues[0]?.message).toBe('Expected an integer');
    expect(checkInvocationOptions(declared, { sides: 2, mood: 'cool' }, directory).issues).toEqual([
      { path: '/options/mood', message: 'Expected one of "calm"' },
    ]);
  });

  it('takes decimal digits only for integers and numbers: 0x10, 1e2 and 0b101 are refused, 16 is taken', () => {
    for (const typed of ['0x10', '1e2', '0b101', 'Infinity', '', ' ']) {
      expect(checkInvocationOptions(declared, { sides: typed }, directory).issues, typed).toEqual([
        { path: '/options/sides', message: 'Expected an integer' },
      ]);
    }
    expect(checkInvocationOptions(declared, { sides: '16' }, directory)).toEqual({ values: { sides: 16 }, issues: [] });
    expect(checkInvocationOptions(declared, { sides: 2, weight: '1e2' }, directory).issues).toEqual([
      { path: '/options/weight', message: 'Expected a number' },
    ]);
    expect(checkInvocationOptions(declared, { sides: ' 42 ', weight: '-.5' }, directory)).toMatchObject({
      values: { sides: 42, weight: -0.5 },
    });
  });

  it("reads own properties only: an option named constructor left out is missing, not Object's constructor", () => {
    const named = [option({ name: 'constructor', type: 'string' }), option({ name: 'to-string', type: 'string' })];
    expect(checkInvocationOptions(named, {}, directory)).toEqual({ values: {}, issues: [] });
    const required = [option({ name: 'constructor', type: 'string', required: true })];
    expect(checkInvocationOptions(required, {}, directory).issues).toEqual([
      { path: '/options/constructor', message: 'Required option is missing' },
    ]);
    expect(checkInvocationOptions(required, { constructor: 'x' }, directory)).toEqual({
      values: { constructor: 'x' },
      issues: [],
    });
  });
});
