import {
  Command,
  type CommandContext,
  Cooldown,
  defineConversation,
  FileSessionStore,
  type MessageContext,
  OnMessage,
  Option,
  RequireRole,
  refuse,
  UseGuards,
} from '@boardbot/core';
import { i18n, LOCALE_TTL_MS, setLocale } from '@boardbot/core/i18n';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { IsIn, IsInt, IsString, Min, NotEquals } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anotherInstance, stateDir } from './support.js';

// docs/i18n.md, through the runtime on the emulator: replies in each person's locale (their setting,
// the board's, the hook's, the default), i18next's plurals and interpolation, and the runtime's own
// replies in both locales. Without the plugin: i18n-off.test.ts.

const resources = {
  en: {
    translation: {
      apples_one: '{{count}} apple for {{name}}',
      apples_other: '{{count}} apples for {{name}}',
      languageSet: 'I will speak English.',
      echo: 'You said: {{text}}',
    },
  },
  fr: {
    translation: {
      apples_one: '{{count}} pomme pour {{name}}',
      apples_other: '{{count}} pommes pour {{name}}',
      languageSet: 'Je parlerai français.',
    },
    boardbot: {
      invalidOptions: 'Désolé, {{command}} ne peut pas tourner :\n{{problems}}',
      cooldown_one: 'Doucement : {{command}} à nouveau dans {{count}} seconde.',
      cooldown_other: 'Doucement : {{command}} à nouveau dans {{count}} secondes.',
      roleNeeded_admin: 'Il faut être admin sur ce tableau ({{yours}}).',
      yourRole_member: 'vous êtes membre',
      errorReply: 'Désolé, une erreur est survenue. Elle a été notée.',
      reask: '{{reason}} — {{question}}',
      unknownCommand: '{{command}} n’est pas disponible pour le moment.',
      unknownTextCommand: 'Pas de {{command}}. Vouliez-vous dire {{suggestions}} ?',
    },
  },
};

class LanguageOptions {
  @Option({ description: 'A language code' }) @IsString() locale!: string;
  @Option({ description: 'Whose: user or board' }) @IsIn(['user', 'board']) per: 'user' | 'board' = 'user';
}

@Command({ name: 'language', description: 'Choose the language the bot answers in', options: LanguageOptions })
class Language {
  async run(ctx: CommandContext<LanguageOptions>, { locale, per }: LanguageOptions) {
    try {
      await setLocale(ctx, locale === 'none' ? undefined : locale, { per });
    } catch (error) {
      return `refused: ${(error as { code: string }).code}`;
    }
    return ctx.t('languageSet');
  }
}

class ApplesOptions {
  // The platform checks the minimum; the bot alone refuses 13 (a check the contract cannot carry).
  @Option({ description: 'How many' }) @IsInt() @Min(0) @NotEquals(13) count!: number;
}

@Command({ name: 'apples', description: 'Count apples', options: ApplesOptions, text: true })
class Apples {
  run(ctx: CommandContext<ApplesOptions>, { count }: ApplesOptions) {
    return ctx.t('apples', { count, name: ctx.user.username });
  }
}

class EchoOptions {
  @Option({ description: 'Anything' }) @IsString() text!: string;
}

@Command({ name: 'echo', description: 'Says it back', options: EchoOptions })
class Echo {
  run(ctx: CommandContext<EchoOptions>, { text }: EchoOptions) {
    return ctx.t('echo', { text });
  }
}

@Command({ name: 'daily', description: 'Once a minute' })
@Cooldown({ ms: 60_000 })
class Daily {
  run(ctx: CommandContext) {
    return `daily (${ctx.locale})`;
  }
}

@Command({ name: 'purge', description: 'Admins only' })
@RequireRole('admin')
class Purge {
  run() {
    return 'purged';
  }
}

@Command({ name: 'closed', description: 'Nobody may' })
@UseGuards(() => false)
class Closed {
  run() {
    return 'ran';
  }
}

@Command({ name: 'boom', description: 'Fails' })
class Boom {
  run(): string {
    throw new Error('kaput');
  }
}

const Age = defineConversation({
  name: 'age',
  questions: [{ ask: 'Age?', parse: (text) => (/^\d+$/.test(text) ? Number(text) : refuse('A number, please.')) }],
  done: (_ctx, [age]) => `age ${age}`,
});

class StartAge {
  @OnMessage('!apple')
  apple(ctx: MessageContext) {
    return ctx.t('apples', { count: 1, name: ctx.authorName });
  }

  @OnMessage('!age')
  start(ctx: MessageContext) {
    return ctx.session(Age).start(ctx.message.id);
  }
}

/** Board ids whose locale the bot's configuration sets (the `resolveLocale` hook reads it). */
const configured = new Map<string, string>();

describe('i18n', () => {
  let platform: TestPlatform;
  let clock: TestClock;

  beforeAll(async () => {
    clock = new TestClock('2026-03-02T09:00:00Z');
    const plugin = i18n({
      resources,
      resolveLocale: (ctx) => {
        if (!('boardId' in ctx)) return undefined;
        if (configured.get(ctx.boardId) === 'broken') throw new Error('locale config unreadable');
        return configured.get(ctx.boardId);
      },
    });
    const handlers = [Language, Apples, Echo, Daily, Purge, Closed, Boom, StartAge, Age.listener];
    platform = await createTestPlatform({ handlers, plugins: [plugin], clock });
  });
  afterAll(() => platform?.close());

  it('answers each person in the locale they chose, with plural forms and interpolation', async () => {
    const camille = platform.person('camille');
    const dan = platform.person('dan');
    expect((await camille.invoke('language', { locale: 'fr' })).content).toBe('Je parlerai français.');
    expect((await camille.invoke('apples', { count: 1 })).content).toBe('1 pomme pour camille');
    expect((await camille.invoke('apples', { count: 3 })).content).toBe('3 pommes pour camille');
    // Dan chose nothing: the default locale.
    expect((await dan.invoke('apples', { count: 1 })).content).toBe('1 apple for dan');
    expect((await dan.invoke('apples', { count: 0 })).content).toBe('0 apples for dan');
    // A person's setting holds on every board; setting it back speaks the new locale at once.
    expect((await camille.invoke('apples', { count: 2 }, { board: 'random' })).content).toBe('2 pommes pour camille');
    expect((await camille.invoke('language', { locale: 'en' })).content).toBe('I will speak English.');
    expect((await camille.invoke('apples', { count: 2 })).content).toBe('2 apples for camille');
    // Chat text, not HTML: a value is said as it is.
    expect((await dan.invoke('echo', { text: 'Tom & Jerry <3' })).content).toBe('You said: Tom & Jerry <3');
  });

  it("refuses invalid options and holds a cooldown in each person's locale", async () => {
    const elise = platform.person('elise');
    const finn = platform.person('finn');
    await elise.invoke('language', { locale: 'fr-CA' });
    expect((await elise.invoke('apples', { count: 13 })).content).toBe(
      'Désolé, /apples ne peut pas tourner :\n- count should not be equal to 13',
    );
    expect((await finn.invoke('apples', { count: 13 })).content).toBe(
      'Sorry, /apples cannot run:\n- count should not be equal to 13',
    );

    expect((await elise.invoke('daily')).content).toBe('daily (fr-CA)');
    expect((await finn.invoke('daily')).content).toBe('daily (en)');
    expect((await elise.invoke('daily')).content).toBe('Doucement : /daily à nouveau dans 60 secondes.');
    expect((await finn.invoke('daily')).content).toBe('Slow down: /daily can be used again in 60 s.');
    await platform.settle(); // the clock moves while the bot is idle
    clock.advance(59_500);
    expect((await elise.invoke('daily')).content).toBe('Doucement : /daily à nouveau dans 1 seconde.');
  });

  it('says the role refusal, the error reply and a conversation re-ask in the locale, English where a text is not translated', async () => {
    const gabin = platform.person('gabin', { role: 'member' });
    await gabin.invoke('language', { locale: 'fr' });
    expect((await gabin.invoke('purge')).content).toBe('Il faut être admin sur ce tableau (vous êtes membre).');
    // fr does not translate `denied`: English, where the runtime's texts are.
    expect((await gabin.invoke('closed')).content).toBe('You are not allowed to do that here.');
    expect((await gabin.invoke('boom')).content).toBe('Désolé, une erreur est survenue. Elle a été notée.');
    expect((await platform.person('hugo').invoke('boom')).content).toBe(
      'Sorry, something went wrong while handling that. It has been logged.',
    );

    const started = await gabin.say('!age');
    expect((await platform.bot.nextMessage({ replyTo: started })).content).toBe('Age?');
    const banana = await gabin.say('banana');
    expect((await platform.bot.nextMessage({ replyTo: banana })).content).toBe('A number, please. — Age?');
  });

  it('suggests the nearest text command to a mistyped one in the locale', async () => {
    const louise = platform.person('louise');
    await louise.invoke('language', { locale: 'fr' });
    const typo = await louise.say('!aples 3');
    expect((await platform.bot.nextMessage({ replyTo: typo })).content).toBe(
      'Pas de !aples. Vouliez-vous dire !apples ?',
    );
    const english = await platform.person('jo').say('!aples 3');
    expect((await platform.bot.nextMessage({ replyTo: english })).content).toBe(
      'There is no !aples. Did you mean !apples?',
    );
  });

  it("speaks a board's locale to the people on it who chose none, the hook's before anyone's, and the default when the hook throws", async () => {
    const ines = platform.person('ines');
    const jules = platform.person('jules');
    for (const board of ['paris', 'lyon', 'broken']) await platform.createBoard(board);
    await jules.invoke('language', { locale: 'en' });
    expect((await ines.invoke('language', { locale: 'fr', per: 'board' }, { board: 'paris' })).content).toBe(
      'Je parlerai français.',
    );
    expect((await ines.invoke('apples', { count: 2 }, { board: 'paris' })).content).toBe('2 pommes pour ines');
    expect((await ines.invoke('apples', { count: 2 })).content).toBe('2 apples for ines');
    expect((await jules.invoke('apples', { count: 2 }, { board: 'paris' })).content).toBe('2 apples for jules');

    configured.set((await platform.board('lyon')).id, 'fr');
    expect((await jules.invoke('apples', { count: 1 }, { board: 'lyon' })).content).toBe('1 pomme pour jules');
    configured.set((await platform.board('broken')).id, 'broken');
    expect((await ines.invoke('apples', { count: 1 }, { board: 'broken' })).content).toBe('1 apple for ines');
    expect(
      platform.logs.find({ level: 'warn', msg: 'could not choose the locale: the default is used' }),
    ).toContainEqual(expect.objectContaining({ locale: 'en' }));
  });

  it('refuses to set a locale it has no texts for, and stores nothing', async () => {
    const kim = platform.person('kim');
    await kim.invoke('language', { locale: 'fr' });
    expect((await kim.invoke('language', { locale: 'xx' })).content).toBe('refused: BOARDBOT_UNKNOWN_LOCALE');
    expect((await kim.invoke('apples', { count: 1 })).content).toBe('1 pomme pour kim');
    await kim.invoke('language', { locale: 'none' });
    expect((await kim.invoke('apples', { count: 1 })).content).toBe('1 apple for kim');
  });

  // Last: it moves the clock a year on (once: the bot's clock jumps while it is idle).
  it('keeps a locale setting for a year after its last change', async () => {
    const lea = platform.person('lea');
    const max = platform.person('max');
    await lea.invoke('language', { locale: 'fr' });
    await platform.settle();
    clock.advance(120_000);
    await max.invoke('language', { locale: 'fr' });
    await platform.settle();
    // Lea's setting is a year and a minute old, Max's a minute short of a year.
    clock.advance(LOCALE_TTL_MS - 60_000);
    // Messages, not commands: the harness's wait for a command's answer does not span a year's jump.
    const [toLea, toMax] = [await lea.say('!apple'), await max.say('!apple')];
    expect((await platform.bot.nextMessage({ replyTo: toLea })).content).toBe('1 apple for Lea');
    expect((await platform.bot.nextMessage({ replyTo: toMax })).content).toBe('1 pomme pour Max');
  });
});

describe('i18n across a restart', () => {
  it("keeps the person's setting in the session store, falls back to defaultLocale, and says the bot's own errorReply as given", async () => {
    const dir = await stateDir();
    const plugins = [i18n({ resources: { ...resources, de: { translation: {} } }, defaultLocale: 'fr' })];
    const platform = await createTestPlatform({
      handlers: [Apples, Language, Boom],
      plugins,
      sessions: new FileSessionStore(dir.path),
    });
    // The next version of the bot no longer has /apples, and leaves the registered commands alone.
    const next = anotherInstance(platform, {
      handlers: [Language, Boom],
      commandSync: 'off',
      plugins,
      sessions: new FileSessionStore(dir.path),
      errorReply: 'Oops (our words).',
    });
    try {
      const alice = platform.person('alice');
      expect((await alice.invoke('apples', { count: 2 })).content).toBe('2 pommes pour alice');
      await alice.invoke('language', { locale: 'de' });
      await platform.bot.runtime.stop();
      await next.start();
      // de has no texts: its fallback is defaultLocale (fr), which translates unknownCommand.
      expect((await alice.invoke('apples', { count: 1 })).content).toBe('/apples n’est pas disponible pour le moment.');
      expect((await alice.invoke('boom')).content).toBe('Oops (our words).');
    } finally {
      await next.stop();
      await platform.close();
      await dir.remove();
    }
  });
});
