import { Command, type CommandContext, type GuardFn, Option, UseGuards } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/i18n.md, "Without the plugin": ctx.t says the runtime's own keys in English, and refuses a
// key of the bot's own with BOARDBOT_NO_TRANSLATIONS (the handler fails, and the person hears the apology).

const refuseInWords: GuardFn = (ctx) => ctx.t('boardbot:roleDenied', { yours: 'you are a guest' });

@Command({ name: 'runtime-text', description: 'A runtime text' })
class RuntimeText {
  run(ctx: CommandContext) {
    return `${ctx.locale}: ${ctx.t('boardbot:cooldown', { command: '/x', seconds: 5 })}`;
  }
}

@Command({ name: 'own-text', description: 'A text of the bot' })
class OwnText {
  run(ctx: CommandContext) {
    return ctx.t('greeting');
  }
}

class KeyOptions {
  @Option({ description: 'A runtime text, by name' }) name!: string;
}

/** Names a runtime text with what a person typed: the runtime's own texts only, never Object's members. */
@Command({ name: 'runtime-key', description: 'A runtime text by name', options: KeyOptions })
class RuntimeKey {
  run(ctx: CommandContext<KeyOptions>, { name }: KeyOptions) {
    return ctx.t(`boardbot:${name}`, { context: name });
  }
}

@Command({ name: 'guarded', description: 'Refused in the runtime words' })
@UseGuards(refuseInWords)
class Guarded {
  run() {
    return 'ran';
  }
}

describe('ctx.t without the i18n plugin', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ handlers: [RuntimeText, OwnText, Guarded, RuntimeKey] });
  });
  afterAll(() => platform?.close());

  it("says the runtime's own texts in English, filled with the values", async () => {
    const alice = platform.person('alice');
    expect((await alice.invoke('runtime-text')).content).toBe('en: Slow down: /x can be used again in 5 s.');
    expect((await alice.invoke('guarded')).content).toBe(
      'You are not allowed to do that on this board (you are a guest).',
    );
  });

  it("fails a handler that asks for a key of the bot's own with BOARDBOT_NO_TRANSLATIONS", async () => {
    expect((await platform.person('alice').invoke('own-text')).content).toBe(
      'Sorry, something went wrong while handling that. It has been logged.',
    );
    const failed = platform.logs.find({ level: 'error', msg: 'handler failed' });
    expect(failed).toContainEqual(
      expect.objectContaining({
        handler: 'OwnText.run',
        err: expect.objectContaining({ code: 'BOARDBOT_NO_TRANSLATIONS' }),
      }),
    );
  });

  it('takes only its own texts by name: constructor, __proto__ and toString are no runtime texts', async () => {
    const alice = platform.person('alice');
    expect((await alice.invoke('runtime-key', { name: 'denied' })).content).toBe(
      'You are not allowed to do that here.',
    );
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect((await alice.invoke('runtime-key', { name })).content).toBe(
        'Sorry, something went wrong while handling that. It has been logged.',
      );
    }
    const failed = platform.logs
      .find({ level: 'error', msg: 'handler failed' })
      .filter((l) => l.handler === 'RuntimeKey.run');
    expect(failed.map((l) => (l.err as { code?: string }).code)).toEqual([
      'BOARDBOT_NO_TRANSLATIONS',
      'BOARDBOT_NO_TRANSLATIONS',
      'BOARDBOT_NO_TRANSLATIONS',
    ]);
  });
});
