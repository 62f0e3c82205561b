import i18next, { type Resource } from 'i18next';
import { ContextBase } from '../kernel/base-context.js';
import type { AnyContext } from '../kernel/context.js';
import { LOCALE, RUNTIME_NAMESPACE, RUNTIME_TEXTS, TRANSLATOR, type Translator } from '../kernel/translate.js';
import type { Plugin } from '../plugins/plugin.js';
import { BOARD_LOCALE, PERSON_LOCALE } from './locale-setting.js';

/** Options of {@link i18n}. */
export interface I18nOptions {
  /**
   * The texts, by locale then namespace then key, as i18next takes them:
   * `{ en: { translation: { hello: 'Hi {{name}}' } }, fr: { translation: { hello: 'Salut {{name}}' } } }`.
   * The `boardbot` namespace translates the runtime's own replies (keys: `RUNTIME_TEXTS`).
   */
  resources: Resource;
  /**
   * The locale of a person and board that chose none, and the first fallback of a missing key (then
   * `'en'`, where the runtime's texts are). @defaultValue `'en'`
   */
  defaultLocale?: string;
  /**
   * Chooses the locale before the stored settings: what it returns wins; `undefined` goes on to the
   * person's setting, then the board's, then `defaultLocale`. It runs before every handler run
   * (its guards included); a throw is logged and the default is used. @defaultValue none
   */
  resolveLocale?: (ctx: AnyContext) => string | undefined | Promise<string | undefined>;
}

/** Defaults of the optional {@link I18nOptions}. */
export const DEFAULT_I18N_OPTIONS = { defaultLocale: 'en' } as const satisfies Partial<I18nOptions>;

/** The bot's translator on one i18next instance of its own (never i18next's global one). */
class I18nextTranslator implements Translator {
  readonly defaultLocale: string;
  readonly locales: readonly string[];
  private readonly i18n = i18next.createInstance();

  constructor(private readonly options: I18nOptions) {
    this.defaultLocale = options.defaultLocale ?? DEFAULT_I18N_OPTIONS.defaultLocale;
    const resources = withRuntimeTexts(options.resources);
    this.locales = Object.keys(resources);
    // Inline resources: with initAsync off, init is done when it returns (a plugin's setup is synchronous).
    void this.i18n.init({
      resources,
      lng: this.defaultLocale,
      fallbackLng: [...new Set([this.defaultLocale, 'en'])],
      ns: [...new Set(['translation', RUNTIME_NAMESPACE, ...Object.values(resources).flatMap(Object.keys)])],
      defaultNS: 'translation',
      // Replies are chat text, not HTML: a value is said as it is.
      interpolation: { escapeValue: false },
      initAsync: false,
    });
  }

  async locale(ctx: AnyContext): Promise<string> {
    try {
      return (await this.options.resolveLocale?.(ctx)) ?? (await storedLocale(ctx)) ?? this.defaultLocale;
    } catch (error) {
      ctx.log.warn({ err: error, locale: this.defaultLocale }, 'could not choose the locale: the default is used');
      return this.defaultLocale;
    }
  }

  t(locale: string, key: string, values: Record<string, unknown> = {}): string {
    return this.i18n.t(key, { ...values, lng: locale });
  }
}

/**
 * The locale the person chose, else the one chosen for the board; undefined when neither was (or the
 * context has no person nor board: a tick, some events). Reads the session store.
 */
async function storedLocale(ctx: AnyContext): Promise<string | undefined> {
  const { subject } = ContextBase.internals(ctx as unknown as ContextBase);
  const person = subject.userId === undefined ? undefined : (await ctx.session(PERSON_LOCALE).get()).locale;
  if (person !== undefined) return person;
  return subject.boardId === undefined ? undefined : (await ctx.session(BOARD_LOCALE).get()).locale;
}

/** The bot's resources, with the runtime's English texts under `en.boardbot` beneath the bot's own. */
function withRuntimeTexts(resources: Resource): Resource {
  const en = resources.en ?? {};
  const own = en[RUNTIME_NAMESPACE];
  const runtime = { ...RUNTIME_TEXTS, ...(typeof own === 'object' ? own : {}) };
  return { ...resources, en: { ...en, [RUNTIME_NAMESPACE]: runtime } };
}

/**
 * Gives the bot `ctx.t` in each person's language, with i18next: its interpolation (`{{name}}`) and
 * plural forms (`count`: `apples_one`, `apples_other`). The locale is chosen before each handler
 * run: `resolveLocale`, else the person's setting (`setLocale`), else the board's, else
 * `defaultLocale`. The runtime's own replies (refusals, cooldown, the error reply) go through the
 * same keys, in the `boardbot` namespace. Import it from `@boardbot/core/i18n`: only then is i18next
 * loaded.
 *
 * @param options - the texts, the default locale and the hook
 * @example
 * createBot({ token, handlers, plugins: [i18n({ resources: { en: { translation: { hi: 'Hi' } }, fr: { translation: { hi: 'Salut' } } } })] });
 */
export function i18n(options: I18nOptions): Plugin {
  const translator = new I18nextTranslator(options);
  return {
    name: '@boardbot/core/i18n',
    setup: ({ services }) => {
      services.set(TRANSLATOR, translator);
    },
    // The locale is chosen before anything (a guard, an option's refusal, the runtime) can speak.
    stages: [
      { name: 'locale', phase: 'open', run: async ({ run, ctx }) => run.set(LOCALE, await translator.locale(ctx)) },
    ],
  };
}
