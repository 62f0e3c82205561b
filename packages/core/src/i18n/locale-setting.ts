import { IsOptional, IsString, MaxLength } from '../kernel/class-validator.js';
import { defineSession } from '../sessions/define-session.js';

/** A year, in milliseconds: how long a locale setting is kept after its last change. */
export const LOCALE_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/** A person's or a board's chosen locale, kept in the session store. */
export class LocaleSetting {
  /** A BCP 47 tag (`'fr'`, `'pt-BR'`); absent: none chosen. */
  @IsOptional()
  @IsString()
  @MaxLength(35)
  locale?: string | undefined;
}

/** A person's locale, on every board (set by `setLocale(ctx, locale)`). */
export const PERSON_LOCALE = defineSession(LocaleSetting, {
  per: 'user',
  name: 'boardbot:locale',
  ttlMs: LOCALE_TTL_MS,
});

/** A board's locale, for the people on it who chose none (set by `setLocale(ctx, locale, { per: 'board' })`). */
export const BOARD_LOCALE = defineSession(LocaleSetting, {
  per: 'board',
  name: 'boardbot:locale',
  ttlMs: LOCALE_TTL_MS,
});
