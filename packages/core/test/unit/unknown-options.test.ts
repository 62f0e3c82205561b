import { type BotOptions, createBot, UnknownBotOptionError } from '@boardbot/core';
import { BOT_OPTION_NAMES, resolveBotOptions } from '@boardbot/core/internal';
import { describe, expect, it } from 'vitest';

// A misspelt option in a variable passes TypeScript's excess property check (it looks only at an
// object literal written in the call), so createBot itself refuses a name it does not know.

describe('createBot refuses an option it does not know', () => {
  it('names it with the option it most likely meant, under a stable code', () => {
    const options = { token: 't0ken', handlers: [], comandSync: 'check' };
    const error = (() => {
      try {
        createBot(options);
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(UnknownBotOptionError);
    expect(error).toMatchObject({
      code: 'BOARDBOT_UNKNOWN_BOT_OPTION',
      unknown: [{ name: 'comandSync', nearest: ['commandSync'] }],
    });
    expect((error as Error).message).toMatch(/'comandSync' \(did you mean 'commandSync'\?\)/);
  });

  it('lists every unknown one; a name close to nothing gets no guess', () => {
    const options = { token: 't0ken', handlers: [], conncurency: 4, sleepy: true } as BotOptions;
    expect(() => resolveBotOptions(options, {})).toThrow(
      /options 'conncurency' \(did you mean 'concurrency'\?\), 'sleepy': it would be ignored/,
    );
  });

  it('refuses an unknown one even when its value is undefined, before asking for the token', () => {
    expect(() => resolveBotOptions({ tokne: 'x', handlers: [] } as unknown as BotOptions, {})).toThrow(
      /'tokne' \(did you mean 'token'\?\)/,
    );
    expect(() => resolveBotOptions({ token: 't', handlers: [], logLevel: undefined } as BotOptions, {})).toThrow(
      UnknownBotOptionError,
    );
  });

  it('accepts every option BotOptions declares', () => {
    const every = Object.fromEntries(BOT_OPTION_NAMES.map((name) => [name, undefined]));
    expect(BOT_OPTION_NAMES).toContain('commandSync');
    expect(() => resolveBotOptions({ ...every, token: 't0ken', handlers: [] } as BotOptions, {})).not.toThrow();
  });
});
