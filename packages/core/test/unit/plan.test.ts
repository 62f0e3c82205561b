import { formatPlan, planCommandSync } from '@boardbot/core';
import type { Command, CommandDefinition } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';

const roll: CommandDefinition = {
  name: 'roll',
  description: 'Roll a die',
  options: [{ name: 'sides', description: 'Sides', type: 'integer', min_value: 2, max_value: 1000 }],
};
const ping: CommandDefinition = { name: 'ping', description: 'Ping' };

/** A command as `GET /app/commands` returns it. */
function registered(def: CommandDefinition, extra: Partial<Command> = {}): Command {
  return {
    id: '0190a3c2-0000-7000-8000-000000000001',
    updated_at: '2026-11-21T10:00:00.000Z',
    options: [],
    ...def,
    ...extra,
  } as Command;
}

describe('planCommandSync', () => {
  it('is in sync when the sets are equal, whatever their order', () => {
    const plan = planCommandSync([roll, ping], [registered(ping), registered(roll)]);
    expect(plan).toMatchObject({ added: [], changed: [], removed: [], inSync: true });
    expect(plan.unchanged.sort()).toEqual(['ping', 'roll']);
  });

  it('normalises defaults: required false, empty options, key order, ids and times do not count', () => {
    const declared: CommandDefinition = {
      name: 'roll',
      description: 'Roll a die',
      options: [
        { type: 'integer', name: 'sides', description: 'Sides', required: false, max_value: 1000, min_value: 2 },
      ],
    };
    const plan = planCommandSync([declared, { ...ping, options: [] }], [registered(roll), registered(ping)]);
    expect(plan.inSync).toBe(true);
  });

  it('lists added, changed (with each difference) and removed commands', () => {
    const changed: CommandDefinition = {
      name: 'roll',
      description: 'Roll dice',
      options: [
        { name: 'sides', description: 'Sides', type: 'integer', min_value: 2, max_value: 100 },
        { name: 'count', description: 'Count', type: 'integer' },
      ],
    };
    const old = registered({ name: 'old', description: 'Old' });
    const plan = planCommandSync([changed, ping], [registered(roll), old]);
    expect(plan.inSync).toBe(false);
    expect(plan.added.map((c) => c.name)).toEqual(['ping']);
    expect(plan.removed.map((c) => c.name)).toEqual(['old']);
    expect(plan.changed).toHaveLength(1);
    expect(plan.changed[0]?.differences).toEqual([
      'description: "Roll a die" → "Roll dice"',
      'option count: added',
      'option sides: max_value 1000 → 100',
    ]);
  });

  it('treats a reordering of options or choices as no change, and sees removed options', () => {
    const a = { name: 'a', description: 'A', type: 'string' as const };
    const b = { name: 'b', description: 'B', type: 'string' as const };
    const before = registered({ name: 'x', description: 'X', options: [a, b] });
    expect(planCommandSync([{ name: 'x', description: 'X', options: [b, a] }], [before]).inSync).toBe(true);
    const choices = (values: number[]) => ({
      name: 'n',
      description: 'N',
      type: 'integer' as const,
      choices: values.map((v) => ({ name: String(v), value: v })),
    });
    const withChoices = registered({ name: 'y', description: 'Y', options: [choices([1, 2, 3])] });
    expect(
      planCommandSync([{ name: 'y', description: 'Y', options: [choices([3, 1, 2])] }], [withChoices]).inSync,
    ).toBe(true);
    expect(
      planCommandSync([{ name: 'y', description: 'Y', options: [choices([1, 2])] }], [withChoices]).changed[0]
        ?.differences,
    ).toEqual([
      'option n: choices [{"name":"1","value":1},{"name":"2","value":2},{"name":"3","value":3}] → [{"name":"1","value":1},{"name":"2","value":2}]',
    ]);
    expect(planCommandSync([{ name: 'x', description: 'X', options: [a] }], [before]).changed[0]?.differences).toEqual([
      'option b: removed',
    ]);
  });

  it('compares subcommand options and unknown keys too', () => {
    const sub = (max: number): CommandDefinition => ({
      name: 'tag',
      description: 'Tags',
      options: [
        {
          name: 'add',
          description: 'Add',
          type: 'subcommand',
          options: [{ name: 'n', description: 'N', type: 'string', max_length: max }],
        },
      ],
    });
    expect(planCommandSync([sub(10)], [registered(sub(10))]).inSync).toBe(true);
    expect(planCommandSync([sub(10)], [registered(sub(20))]).changed[0]?.differences[0]).toMatch(
      /^option add: options/,
    );
    const extra = { ...roll, options: [{ ...roll.options?.[0], autocomplete: true } as never] };
    expect(planCommandSync([extra], [registered(roll)]).inSync).toBe(false);
  });
});

describe('formatPlan', () => {
  it('prints a summary and one line per command', () => {
    const plan = planCommandSync(
      [{ ...roll, description: 'Roll dice' }, ping],
      [registered(roll), registered({ name: 'old', description: 'Old' })],
    );
    expect(formatPlan(plan)).toBe(
      [
        'Command sync plan: 1 to add, 1 to change, 1 to remove, 0 unchanged',
        '  + /ping  Ping',
        '  ~ /roll',
        '      description: "Roll a die" → "Roll dice"',
        '  - /old',
      ].join('\n'),
    );
  });

  it('says when nothing is to be written', () => {
    expect(formatPlan(planCommandSync([ping], [registered(ping)]))).toBe('Commands in sync (1 unchanged)\n  = /ping');
  });
});
