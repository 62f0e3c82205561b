import { NoTranslationsError } from '../errors.js';
import type { AnyContext, TranslateValues } from './context.js';
import type { HandlerRun } from './run.js';
import { RunKey } from './run-key.js';
import { ServiceKey, type Services } from './services.js';

/**
 * The namespace of the runtime's own texts: `ctx.t('boardbot:cooldown', ...)`. A bot translates them
 * by giving this namespace in its i18n resources, e.g. `{ fr: { boardbot: { denied: '...' } } }`.
 */
export const RUNTIME_NAMESPACE = 'boardbot';

/**
 * The runtime's own replies, in English, by key in the {@link RUNTIME_NAMESPACE} namespace: what a
 * bot without i18n says, and the defaults a bot with i18n falls back to for a locale that does not
 * translate one. `{{name}}` is filled from the values; a key with a `_<context>` variant is chosen
 * by i18next's `context` value (the role refusal passes the role).
 */
export const RUNTIME_TEXTS = {
  /** A command whose options did not convert or validate; `problems` is one `- ` line each (class-validator's words). */
  invalidOptions: 'Sorry, {{command}} cannot run:\n{{problems}}',
  /** A command held by its cooldown; `count` is the same number as `seconds`, for plural forms. */
  cooldown: 'Slow down: {{command}} can be used again in {{seconds}} s.',
  /** A guard returned `false`. */
  denied: 'You are not allowed to do that here.',
  /** `@RequireRole(role)` refused; `context` is the role needed. */
  roleNeeded: 'This needs the {{role}} role on this board ({{yours}}).',
  /** `@RequireRole(predicate)` refused. */
  roleDenied: 'You are not allowed to do that on this board ({{yours}}).',
  /** The `yours` of a role refusal, by the person's role (`context`). */
  yourRole_owner: 'you are an owner',
  yourRole_admin: 'you are an admin',
  yourRole_member: 'you are a member',
  yourRole_app: 'you are an app',
  /** The `yours` of a role refusal to someone who is not a member of the board. */
  notMember: 'you are not a member of this board',
  /** A handler failed (unless `createBot({ errorReply })` gives other words, or `false`). */
  errorReply: 'Sorry, something went wrong while handling that. It has been logged.',
  /** An invocation of a command this bot has no handler for. */
  unknownCommand: '{{command}} is not available right now.',
  /** A text command that does not exist but is close to some that do; `suggestions` lists them. */
  unknownTextCommand: 'There is no {{command}}. Did you mean {{suggestions}}?',
  /** A text command with subcommands, typed without one; `subcommands` lists them. */
  needsSubcommand: '{{command}} needs a subcommand: {{subcommands}}.',
  /** A text command typed with a `subcommand` it does not have; `subcommands` lists those it has. */
  noSubcommand: '{{command}} has no subcommand "{{subcommand}}": {{subcommands}}.',
  /** A conversation asks a question again after its `parse` refused the answer with `reason`. */
  reask: '{{reason}}\n{{question}}',
  /** `/approve` or `/deny` (`@boardbot/core/agents`) found no pending request the person may decide on the board. */
  approvalNone: 'There is no pending request on this board that you may decide.',
  /** `/approve <code>` named a request the person may not decide. */
  approvalNotYours: 'You may not decide this request.',
  /** `/approve <code>` named a request another answer (or the timeout, or a cancel) had decided. */
  approvalDecided: 'This request was already decided.',
} as const;

/** A key of {@link RUNTIME_TEXTS}. */
export type RuntimeTextKey = keyof typeof RUNTIME_TEXTS;

/**
 * What `ctx.t` and the runtime's replies speak through, when the bot has i18n (the
 * `@boardbot/core/i18n` plugin sets it under {@link TRANSLATOR}).
 */
export interface Translator {
  /** The locale of a person or board with no setting. */
  readonly defaultLocale: string;
  /** The locales it has texts for (`setLocale` takes these, and their regional variants). */
  readonly locales: readonly string[];
  /** The locale for the person and board `ctx` serves (never rejects: a failure is the default). */
  locale(ctx: AnyContext): Promise<string>;
  /** The text of `key` in `locale`, filled with `values`. */
  t(locale: string, key: string, values?: TranslateValues): string;
}

/** Where the i18n plugin puts the bot's {@link Translator}. */
export const TRANSLATOR = new ServiceKey<Translator>('translator (i18n)');

/**
 * The locale `ctx.t` speaks in a run: chosen by the i18n plugin's stage before anything can speak
 * (a guard, an option's refusal), and again by `setLocale`; unset: the translator's default.
 */
export const LOCALE = new RunKey<string>('locale');

const PREFIX = `${RUNTIME_NAMESPACE}:`;

/**
 * A runtime text in English, as a bot without i18n says it: `key` is `boardbot:<name>`; `{{x}}` is
 * filled from `values`, and `values.context` picks the `<name>_<context>` variant when there is one.
 * @throws NoTranslationsError for any other key: only a bot with i18n has texts of its own
 */
export function englishText(key: string, values: TranslateValues = {}): string {
  const name = key.startsWith(PREFIX) ? key.slice(PREFIX.length) : undefined;
  // Own properties only: a name from a person (`constructor`, `__proto__`) is no runtime text, nor a value.
  const own = (record: object, field: string): unknown =>
    Object.hasOwn(record, field) ? (record as Record<string, unknown>)[field] : undefined;
  const variant =
    name !== undefined && values.context !== undefined ? own(RUNTIME_TEXTS, `${name}_${values.context}`) : undefined;
  const text = variant ?? (name === undefined ? undefined : own(RUNTIME_TEXTS, name));
  if (typeof text !== 'string') throw new NoTranslationsError(key);
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, v: string) => String(own(values, v) ?? ''));
}

/**
 * The locale a run speaks in: the one its i18n stage or `setLocale` chose, else the translator's
 * default, else `en`.
 * @param run - the run; none (what speaks before any run: a command checked for an agent outside the bot): the default
 * @param services - the bot's services (its translator, if it has i18n)
 */
export function runLocale(run: HandlerRun | undefined, services: Services): string {
  return run?.get(LOCALE) ?? services.find(TRANSLATOR)?.defaultLocale ?? 'en';
}

/**
 * `ctx.t` of a run: `key` in the run's locale, through the bot's translator, or a runtime text in
 * English without one. For what speaks for a run without its context (a conversation's questions).
 * @param run - the run; none: the bot's default locale
 * @param services - the bot's services
 * @param key - the text's key
 * @param values - what fills it
 */
export function runText(
  run: HandlerRun | undefined,
  services: Services,
  key: string,
  values?: TranslateValues,
): string {
  const translator = services.find(TRANSLATOR);
  return translator ? translator.t(runLocale(run, services), key, values) : englishText(key, values);
}
