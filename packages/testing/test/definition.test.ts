import { Command, defineBot } from '@boardbot/core';
import { createTestPlatform, TestOptionsError, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import * as diceModule from './support/dice-bot.js';
import definition, { Dice, Roll, Wording } from './support/dice-bot.js';

class AuditLog {}

/** A handler a test adds, which needs a provider nobody gives. */
@Command({ name: 'audit', description: 'Audits' })
class Audit {
  constructor(readonly log: AuditLog) {}
  run() {
    return 'audited';
  }
}

const loaded = { roll: () => 4 };
let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe("the harness runs the bot's own definition", () => {
  it('with only the provider the test fakes given: the definition gives the others', async () => {
    platform = await createTestPlatform({ bot: definition, providers: [{ provide: Dice, useValue: loaded }] });
    const answer = await platform.person('alice').invoke('roll', { sides: 20 });
    expect(answer.content).toBe('The die says 4');
  });

  it('from the module that exports it (its default export)', async () => {
    platform = await createTestPlatform({ bot: diceModule, providers: [{ provide: Dice, useValue: loaded }] });
    expect((await platform.person('bob').invoke('roll')).content).toBe('The die says 4');
  });

  it('as it is, with the real providers', async () => {
    platform = await createTestPlatform({ bot: definition });
    expect((await platform.person('alice').invoke('roll', { sides: 2 })).content).toMatch(/^The die says [12]$/);
  });

  it('is checked when defined, and checked again with what the test changes', async () => {
    expect(() => defineBot({ handlers: [Roll], providers: [Dice] })).toThrow(
      expect.objectContaining({ code: 'BOARDBOT_MISSING_PROVIDER', message: expect.stringContaining('Wording') }),
    );
    const partial = defineBot({ handlers: [Roll], providers: [{ provide: Dice, useValue: loaded }, Wording] });
    await expect(
      createTestPlatform({ bot: partial, plugins: [{ name: 'more', handlers: [Audit] }] }),
    ).rejects.toMatchObject({
      code: 'BOARDBOT_MISSING_PROVIDER',
      message: expect.stringContaining('Audit needs AuditLog'),
    });
  });

  it('refuses a bot that is none of a definition, its module or a factory', async () => {
    await expect(createTestPlatform({ bot: { handlers: [Roll] } as never })).rejects.toBeInstanceOf(TestOptionsError);
  });
});
