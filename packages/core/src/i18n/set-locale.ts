import { UnknownLocaleError } from '../errors.js';
import { ContextBase } from '../kernel/base-context.js';
import type { AnyContext, BaseContext } from '../kernel/context.js';
import { LOCALE, TRANSLATOR } from '../kernel/translate.js';
import { BOARD_LOCALE, PERSON_LOCALE } from './locale-setting.js';

/** Options of {@link setLocale}. */
export interface SetLocaleOptions {
  /**
   * Whose setting: the person's (theirs on every board), or the board's (for the people on it who
   * chose none). @defaultValue `'user'`
   */
  per?: 'user' | 'board';
}

/**
 * Sets the locale of the person `ctx` serves (or of its board), kept in the session store for a year
 * after its last change, and chooses again this run's locale: `ctx.t` speaks it from the next call.
 * `undefined` removes the setting.
 *
 * @param ctx - the handler's context (a command's, a message's: one with a person, or a board for `per: 'board'`)
 * @param locale - a locale the i18n plugin has resources for (`'fr'`; `'fr-CA'` when `fr` is known)
 * @param options - whose setting
 * @throws UnknownLocaleError (`BOARDBOT_UNKNOWN_LOCALE`) for a locale without resources
 * @throws BotStateError when the bot has no i18n plugin
 * @example
 * await setLocale(ctx, ctx.options.language);
 * return ctx.t('languageSet'); // in the new language
 */
export async function setLocale(
  ctx: BaseContext,
  locale: string | undefined,
  options: SetLocaleOptions = {},
): Promise<void> {
  const { run, services } = ContextBase.internals(ctx as unknown as ContextBase);
  const translator = services.get(TRANSLATOR);
  const known = translator.locales;
  if (locale !== undefined && !known.includes(locale) && !known.includes(locale.split('-')[0] ?? '')) {
    throw new UnknownLocaleError(locale, known);
  }
  const setting = ctx.session(options.per === 'board' ? BOARD_LOCALE : PERSON_LOCALE);
  await setting.update((s) => {
    s.locale = locale;
  });
  run.set(LOCALE, await translator.locale(ctx as AnyContext));
}
