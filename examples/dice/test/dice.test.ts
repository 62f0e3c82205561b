import { DEFAULT_DEV_TOKEN } from '@boardbot/emulator';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiceBot, DEV_TOKEN } from '../src/bot.js';

// The dice are loaded: every roll takes the middle of the range (random() = 0.5), so answers are exact.
let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform({ bot: (base) => createDiceBot({ ...base, random: () => 0.5 }) });
});
afterAll(() => platform?.close());

describe('/roll', () => {
  it('rolls one six-sided die by default', async () => {
    const answer = await platform.person('alice').invoke('roll');
    expect(answer.content).toBe('🎲 You rolled **4** (d6)');
  });

  it('takes the sides and the number of dice, and sums them', async () => {
    const answer = await platform.person('alice').invoke('roll', { sides: 20, count: 3 });
    expect(answer.content).toBe('🎲 You rolled **33** (3d20: 11 + 11 + 11)');
  });

  it('lists every die with the list style', async () => {
    const answer = await platform.person('bob').invoke('roll', { sides: 10, count: 2, style: 'list' });
    expect(answer.content).toBe('🎲 You rolled 2d10: **6**, **6**');
  });

  it('registers its options from the options class: bounds, choices, nothing required', async () => {
    const [roll] = (await platform.control.state()).apps[0]?.commands.filter((c) => c.name === 'roll') ?? [];
    expect(roll?.options).toEqual([
      expect.objectContaining({ name: 'sides', type: 'integer', min_value: 2, max_value: 1000 }),
      expect.objectContaining({ name: 'count', type: 'integer', min_value: 1, max_value: 20 }),
      expect.objectContaining({
        name: 'style',
        type: 'string',
        choices: [
          { name: 'sum', value: 'sum' },
          { name: 'list', value: 'list' },
        ],
      }),
    ]);
    expect(roll?.options.some((o) => o.required)).toBe(false);
  });

  it.each([
    [{ sides: 1 }, '/options/sides: Expected at least 2'],
    [{ sides: 1001 }, '/options/sides: Expected at most 1000'],
    [{ count: 21 }, '/options/count: Expected at most 20'],
    [{ sides: 2.5 }, '/options/sides: Expected an integer'],
    [{ style: 'shout' }, '/options/style'],
  ])('refuses %j before the bot sees it, saying why', async (options, problem) => {
    const error = await platform
      .person('alice')
      .invoke('roll', options)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BOARDBOT_TEST_INVOCATION_REJECTED', apiCode: 'validation_failed' });
    expect((error as Error).message).toContain(problem);
  });
});

describe('/coin', () => {
  it('flips, and says whether the call was right', async () => {
    const alice = platform.person('alice');
    // random() = 0.5 lands on tails (the second of heads, tails).
    expect((await alice.invoke('coin')).content).toBe('🪙 Tails!');
    expect((await alice.invoke('coin', { call: 'tails' })).content).toBe('🪙 Tails, you called it!');
    expect((await alice.invoke('coin', { call: 'heads' })).content).toBe('🪙 Tails, not this time.');
  });
});

describe('/pick', () => {
  it('picks one of the things given', async () => {
    const answer = await platform.person('bob').invoke('pick', { from: 'pizza, sushi , tacos' });
    expect(answer.content).toBe('👉 sushi');
  });

  it('explains to the person what the platform could not check', async () => {
    const answer = await platform.person('bob').invoke('pick', { from: 'just pizza' });
    expect(answer.content).toBe(
      'Sorry, /pick cannot run:\n- from must list at least two things, separated by commas (pizza, sushi)',
    );
    expect(platform.logs.find({ msg: 'invalid options' })).not.toHaveLength(0);
  });
});

describe('running it', () => {
  it('falls back to the emulator’s development token', () => {
    expect(DEV_TOKEN).toBe(DEFAULT_DEV_TOKEN);
  });

  it('answers every roll and logs no problem', async () => {
    await platform.settle();
    expect(platform.logs.problems()).toEqual([]);
  });
});
