import { BaseContextImpl } from '../kernel/base-context.js';
import type { AnyContext } from '../kernel/context.js';
import { BOARD_LOCALE, PERSON_LOCALE } from './locale-setting.js';

/**
 * The locale the person chose, else the one chosen for the board; undefined when neither was (or the
 * context has no person nor board: a tick, some events). Reads the session store.
 */
export async function storedLocale(ctx: AnyContext): Promise<string | undefined> {
  const { subject } = BaseContextImpl.internals(ctx as unknown as BaseContextImpl);
  const person = subject.userId === undefined ? undefined : (await ctx.session(PERSON_LOCALE).get()).locale;
  if (person !== undefined) return person;
  return subject.boardId === undefined ? undefined : (await ctx.session(BOARD_LOCALE).get()).locale;
}
