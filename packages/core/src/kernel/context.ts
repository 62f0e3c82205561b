import type { App, Embed, Logger } from '@boardbot/protocol';
import type { BotRest, RequestOptions } from './ports.js';
import type { Scoped } from './scoped.js';

/** A message body a handler sends: plain text, or content and embeds. */
export type ReplyBody = string | { content?: string; embeds?: Embed[] };

/** Values a text is filled with (`{{name}}`), and i18next's own options (`count`, `context`...). */
export type TranslateValues = Record<string, unknown>;

/** What a handler may return: a body to reply with (when it has not replied yet), or nothing. */
export type HandlerResult = ReplyBody | undefined;

/** What every context carries. */
export interface BaseContext {
  /** The app the bot runs as (`bot_user_id` authors its messages). */
  readonly app: App;
  /**
   * The full REST client, made for this run: its calls carry the run's correlation id and abort
   * signal and, for writes, an `Idempotency-Key` derived from the event, like the context's own
   * methods, wherever they are made: a replayed event writes nothing twice. A service that writes for
   * the handler gets it passed (the bot's own client does not know the run).
   */
  readonly rest: BotRest;
  /** A child logger carrying this event's ids. */
  readonly log: Logger;
  /** Follows the event into every REST call made through the context (`X-Request-Id`). */
  readonly correlationId: string;
  /** `{ requestId, logger }` of the run, for a client other than `ctx.rest` (whose calls carry them already). */
  readonly requestOptions: RequestOptions;
  /**
   * Aborted when the handler is abandoned: it ran past `handlerTimeoutMs`, or was still running when
   * `stop()` gave up waiting (`shutdownTimeoutMs`). Its writes (through the context or `ctx.rest`) are
   * dropped from then on (`BOARDBOT_WRITE_DROPPED`); pass it to slow work so that it stops too.
   */
  readonly signal: AbortSignal;
  /**
   * A key for a side effect outside the platform (a database write, a payment), derived from the
   * event, the handler and `name`: the same on every run of this event, so the other system can
   * refuse to apply it twice when the event is handled again after a restart.
   *
   * @param name - names the effect within the handler, e.g. `'charge'`
   * @example await payments.charge(amount, { idempotencyKey: ctx.idempotencyKey('charge') });
   */
  idempotencyKey(name: string): string;
  /**
   * Opens a session (`defineSession`) or a conversation (`defineConversation`) for the person and
   * board this handler serves, as the definition is keyed.
   *
   * @param definition - what to open
   * @example const counter = await ctx.session(Counter).update((c) => { c.count++; });
   */
  session<H>(definition: Scoped<H>): H;
  /**
   * The locale {@link BaseContext.t} speaks for this person and board: chosen before the handler
   * (and its guards) ran by the i18n plugin (`@boardbot/core/i18n`); its `defaultLocale`, or `'en'`,
   * when the bot has none.
   */
  readonly locale: string;
  /**
   * The text of `key` in {@link BaseContext.locale}, filled with `values` (i18next's interpolation and
   * plurals: `{{name}}`, `count`). Needs the i18n plugin, except for the runtime's own keys
   * (`boardbot:<name>`), which a bot without it says in English.
   *
   * @param key - the key in the bot's i18n resources (`'greeting'`, `'ns:greeting'`)
   * @param values - what the text is filled with; `count` picks the plural form
   * @throws NoTranslationsError (`BOARDBOT_NO_TRANSLATIONS`) for a key of the bot's own, when it has no i18n plugin
   * @example return ctx.t('apples', { count: 3 }); // "3 apples", "3 pommes"
   */
  t(key: string, values?: TranslateValues): string;
}

// The contexts of each kind of handler, by `kind`. Each feature adds its own context here (TypeScript
// declaration merging), so the kernel and the policies name "any context" without importing the
// features above them, and a new kind of handler touches only its own folder.

/** Contexts that guards, cooldowns and middleware see, by `kind`. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each feature through declaration merging.
export interface GuardedContexts {}

/** Every context a handler can receive, by `kind`. */
export interface HandlerContexts extends GuardedContexts {}

/** The context guards and middleware see: a command or a message. */
export type HandlerContext = GuardedContexts[keyof GuardedContexts];

/** Any context a handler can receive. */
export type AnyContext = HandlerContexts[keyof HandlerContexts];
