import type { BoardbotErrorOptions, ErrorArgs } from '@boardbot/protocol';
import { BoardbotError, createErrorFactory } from '@boardbot/protocol/runtime';

// The root every boardbot error extends, for `instanceof` and `isBoardbotError` without importing protocol.
export { BoardbotError, isBoardbotError } from '@boardbot/protocol/runtime';

/** How to make TypeScript emit decorator metadata; part of every missing-metadata message. */
const METADATA_FIX =
  'compile with tsc or vitest and set "experimentalDecorators": true and "emitDecoratorMetadata": true in ' +
  'tsconfig.json (esbuild and tsx do not emit decorator metadata)';

/** A name that is not known, and the known names nearest to it (a did-you-mean). */
export interface UnknownName {
  /** The name as written. */
  readonly name: string;
  /** The known names it may have meant, nearest first (none when nothing is close). */
  readonly nearest: readonly string[];
}

// Every error of `@boardbot/core`, declared once: its stable code and its message, which says what went
// wrong and, where it can, how to fix it.
const CORE_ERRORS = createErrorFactory({
  BOARDBOT_MISSING_METADATA: {
    message: (what: string, explicitFix: string) =>
      `${what} has no decorator metadata (design:type / design:paramtypes), so its type is unknown. ` +
      `Fix: ${METADATA_FIX}; or ${explicitFix}.`,
  },
  BOARDBOT_MISSING_PROVIDER: {
    message: (consumer: string, dependency: string | undefined, index: number) =>
      dependency === undefined
        ? `${consumer}'s constructor parameter ${index + 1} has no class type (an interface, a union or a ` +
          'type-only import): inject a class, imported as a value, or name the provider of an interface with ' +
          "@Inject(token), a token made by createToken<T>('name') and given as { provide: token, useValue }."
        : `${consumer} needs ${dependency} (${index < 0 ? 'inject()' : `constructor parameter ${index + 1}`}), ` +
          'which is not a provider: add it to createBot({ providers: ' +
          `${dependency.startsWith('token ') ? '[{ provide: token, useValue }]' : `[${dependency}]`} }).`,
  },
  BOARDBOT_INJECT_OUTSIDE: {
    message: (what: string) =>
      `inject(${what}) was called outside the construction of a class the bot builds. Fix: call it in the ` +
      'constructor or a field initializer of a provider, handler or guard class.',
  },
  BOARDBOT_CIRCULAR_DEPENDENCY: {
    message: (chain: readonly string[]) =>
      `Circular dependency: ${chain.join(' -> ')}. Break the cycle, e.g. by moving shared state into a third provider.`,
  },
  BOARDBOT_INVALID_HANDLER: { message: (message: string) => message },
  BOARDBOT_INVALID_OPTION: { message: (message: string) => message },
  BOARDBOT_INVALID_COMMANDS: {
    message: (problems: readonly string[]) => `The declared commands are invalid:\n  - ${problems.join('\n  - ')}`,
  },
  BOARDBOT_COMMANDS_DRIFT: {
    message: (plan: string) =>
      `The registered commands differ from the declared ones (commandSync: 'check'):\n${plan}\n` +
      `Fix: run \`boardbot commands sync\` (or start once with commandSync: 'sync').`,
  },
  BOARDBOT_HANDLER_TIMEOUT: {
    message: (handler: string, ms: number) =>
      `${handler} did not finish within ${ms} ms: its ctx.signal is aborted, its worker freed and its later writes ` +
      'dropped. Honour ctx.signal, or raise handlerTimeoutMs if this work is expected to be slow.',
  },
  BOARDBOT_SHUTDOWN_TIMEOUT: {
    message: (handler: string, ms: number) =>
      `${handler} was still running when the bot stopped (shutdownTimeoutMs, ${ms} ms, passed): it was abandoned, ` +
      'its writes are dropped. Honour ctx.signal, or raise shutdownTimeoutMs (and the grace period of your process manager).',
  },
  BOARDBOT_WRITE_DROPPED: {
    message: (handler: string, operation: string, why: string) =>
      `${handler} called ctx.${operation}() after it was abandoned (${why}): the write was dropped, so that it cannot ` +
      'follow the apology already sent. Stop writing once ctx.signal is aborted, or raise handlerTimeoutMs.',
  },
  BOARDBOT_RUN_CANCELLED: {
    message: (handler: string) =>
      `${handler} was cancelled by a newer message of the same burst (burst 'latest'): its ctx.signal is aborted and ` +
      'its later writes are dropped; the newest message runs next. Stop working once ctx.signal is aborted.',
  },
  BOARDBOT_BURST_UNORDERED: {
    message: (listeners: readonly string[]) =>
      `${listeners.join(', ')} ${listeners.length === 1 ? 'declares' : 'declare'} a burst policy, which needs the ` +
      "messages of a board in order, but orderBy is 'none': a burst could be formed from messages out of order and " +
      "its runs could overlap. Use orderBy: 'board' (the default) or 'user', or remove the burst option.",
  },
  BOARDBOT_INTERACTION_EXHAUSTED: {
    message: (command: string) =>
      `${command} has had its 5 answers: the platform accepts 5 answers per interaction (the reply and 4 follow-ups) ` +
      'and refused this one (410 interaction_exhausted). Post further messages with ctx.send(), or let the runtime ' +
      "post them on the board instead: createBot({ exhaustedInteraction: 'send' }).",
  },
  BOARDBOT_INVALID_CONFIG: { message: (message: string) => message },
  BOARDBOT_UNKNOWN_BOT_OPTION: {
    message: (unknown: readonly UnknownName[]) =>
      `createBot does not know the option${unknown.length === 1 ? '' : 's'} ${unknown
        .map(({ name, nearest }) =>
          nearest.length === 0
            ? `'${name.slice(0, 60)}'`
            : `'${name.slice(0, 60)}' (did you mean ${nearest.map((n) => `'${n}'`).join(' or ')}?)`,
        )
        .join(
          ', ',
        )}: it would be ignored. Fix the name, or remove it (every option is in BotOptions, docs/api-reference.md).`,
  },
  BOARDBOT_BOT_STATE: { message: (message: string) => message },
  BOARDBOT_INTERACTION_EXPIRED: {
    message: (command: string) =>
      `The interaction of ${command} expired before it could be answered again after a restart; an earlier ` +
      'run may have answered it, so nothing is posted on the board.',
  },
  BOARDBOT_SCALE_UNAVAILABLE: {
    message: (why: string) =>
      `BOARDBOT_REDIS_URL is set, so the bot should run as a replica, but ${why}. Give it the adapter: ` +
      "scale: redis() from @boardbot/redis (npm install @boardbot/redis; it reads BOARDBOT_REDIS_URL), or export the bot's " +
      'definition (export default defineBot({ ... })) for `boardbot start`, which passes it; or unset BOARDBOT_REDIS_URL ' +
      '(or pass scale: false) to run as a single process.',
  },
  BOARDBOT_INVALID_SESSION: {
    message: (session: string, problems: readonly string[]) =>
      `The ${session} session was not written: the changed value fails its class's constraints:\n  - ${problems.join('\n  - ')}\n` +
      'Fix the update, or the constraints of the class.',
  },
  BOARDBOT_SESSION_CONFLICT: {
    message: (session: string, attempts: number) =>
      `The ${session} session could not be updated: other writers changed it first ${attempts} times in a row. ` +
      'Keep updates short (no slow work inside update()), or key the session more narrowly.',
  },
  BOARDBOT_STREAM_STOPPED: {
    message: (handler: string, why: string) =>
      `${handler}'s streamed answer stopped before its source ended: ${why}. The answer ends with a visible ` +
      "marker and the error hooks ran. Fix the source, or raise the stream's idleTimeoutMs, maxDurationMs or maxLength.",
  },
  BOARDBOT_STREAM_KEY_REUSED: {
    message: (handler: string) =>
      `${handler}'s streamed answer met a write the platform had already made with different content ` +
      '(422 idempotency_key_reused): this run of the event made other writes before the stream than its first ' +
      'run did. Make the handler write the same things, in the same order, before ctx.stream() on every run.',
  },
  BOARDBOT_INVALID_SCHEDULE: {
    message: (what: string, fix: string) => `${what} is not a valid schedule: ${fix}.`,
  },
  BOARDBOT_SESSION_SCOPE: {
    message: (session: string, per: string) =>
      `The ${session} session is kept per ${per}, but this handler has no ${per === 'board' ? 'board' : 'person or board'} ` +
      '(an @OnEvent listener, or a webhook message): open it from a command or a message from a person, or key it per board.',
  },
  BOARDBOT_NO_TRANSLATIONS: {
    message: (key: string) =>
      `ctx.t('${key}') has no translation: this bot has no i18n. Add i18n({ resources }) from ` +
      "'@boardbot/core/i18n' to createBot({ plugins }) (and install i18next).",
  },
  BOARDBOT_UNKNOWN_LOCALE: {
    message: (locale: string, known: readonly string[]) =>
      `The locale ${JSON.stringify(locale.slice(0, 40))} has no resources; this bot knows ${known.join(', ')}. ` +
      'Give one of those, or add its texts to i18n({ resources }).',
  },
  BOARDBOT_MIDDLEWARE_NEXT_TWICE: {
    message: () =>
      'A middleware called next() more than once: call it once (and await it) to run the rest of the chain and the ' +
      'handler, or not at all to stop here.',
  },
  BOARDBOT_BOARD_NOT_OPEN: {
    message: (tool: string, boardId: string) =>
      `${tool} was refused: the asking person is not a member of board ${boardId} (or the app is not on it), ` +
      'so the assistant may not read or write there for them. Use a board the person is a member of: by ' +
      'default, the board they asked on.',
  },
  BOARDBOT_TOOL_WRITES_SPENT: {
    message: (tool: string, max: number) =>
      `${tool} was refused: this turn already made its ${max} writes (the board kit's maxWrites). ` +
      'Tell the person what was done; more writes need a new question.',
  },
  BOARDBOT_TOOL_REFUSED: {
    message: (command: string, told: string) =>
      `${command} was not run as the asking person: ${told}\n` +
      'Call it again with other options if they were wrong, or tell the person why it cannot be done.',
  },
  BOARDBOT_COMMAND_NEEDS_PERSON: {
    message: (command: string, guards: readonly string[]) =>
      `${command} was refused: it runs behind ${guards.join(', ')}, which decide by the person who runs it, and no ` +
      'person was given to run it as. Run it as a person of the board (the MCP server: boardbot mcp --as <user id>).',
  },
  BOARDBOT_NOT_BOARD_MEMBER: {
    message: (command: string, who: string, boardId: string) =>
      `${command} was refused: ${who} is not a member of board ${boardId}, so no command runs as them there. ` +
      'Use a board they are a member of (list_members shows who is), or run it as another person.',
  },
  BOARDBOT_APP_TOKEN_MISSING: {
    message: (app: string, where: string) =>
      `The app ${JSON.stringify(app)} has no token: ${where}. Set it (a token is never read from a configuration ` +
      'file), or remove the app from the host.',
  },
  BOARDBOT_UNKNOWN_APP: {
    message: (app: string, known: readonly string[]) =>
      `The host runs no app ${JSON.stringify(app.slice(0, 64))}; it runs ${known.length > 0 ? known.join(', ') : 'none'}. ` +
      'Add it with host.add({ id, bot, token }) first.',
  },
  BOARDBOT_BROADCAST_CHANGED: {
    message: (id: string, what: 'body' | 'boards') =>
      `The broadcast "${id}" was begun with ${what === 'body' ? 'another message' : 'other boards'}: calling it again ` +
      'resumes it, so it must be called with the same message and boards. To send something else, give it a new id.',
  },
  BOARDBOT_INVALID_BROADCAST: {
    message: (problem: string) =>
      `bot.broadcast() cannot run: ${problem}. Call it once the bot runs (after await bot.start()), with an id of ` +
      '1 to 100 of A-Z a-z 0-9 . _ : -, board ids (UUIDs) or a filter, and a message with content or embeds.',
  },
  BOARDBOT_AGENT_BOUND: {
    message: (bound: string, limit: number) =>
      `The agent's turn reached its bound of ${limit} (${bound}): ` +
      (bound === 'turnsPerMinute'
        ? 'wait a minute before asking again, or raise turnsPerMinute in defineAgent().'
        : 'answer with what you have; the author may raise it in defineAgent().'),
  },
  BOARDBOT_UNSAFE_REGEX: {
    message: (problems: readonly string[], undecided = 0) =>
      `A message could stall the whole bot (every board, /healthz too): ${
        undecided > 0
          ? `${problems.length === 1 ? 'this regular expression is' : 'these regular expressions are'} not known to run without catastrophic backtracking`
          : `${problems.length === 1 ? 'this regular ' + 'expression backtracks' : 'these regular expressions backtrack'} catastrophically on some inputs`
      }:\n  - ` +
      `${problems.join('\n  - ')}\n` +
      'Fix: rewrite the pattern so that no two repetitions can match the same text (e.g. /^(a+)+$/ -> /^a+$/); or ' +
      "run it in linear time with { engine: 're2' }; or accept the risk with { allowSlowRegex: true } and a small " +
      'maxLength (a validator: @AllowSlowRegex() on its property, and a small @MaxLength). ' +
      'See docs/listening-to-messages.md#patterns-that-cannot-stall.',
  },
});

/**
 * Stable codes of the errors `@boardbot/core` throws. Match on `error.code`, never on the message:
 * messages say how to fix the problem and may be reworded.
 */
export const CORE_ERROR_CODES = CORE_ERRORS.codes;

/** A stable error code of `@boardbot/core`. */
export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];

/** Base of every error `@boardbot/core` throws; `code` is stable. */
export abstract class BoardbotCoreError extends BoardbotError {
  declare readonly code: CoreErrorCode;

  /** Takes the code, the arguments of its message template, and the underlying cause if any. */
  constructor(...[code, args, options]: ErrorArgs<typeof CORE_ERRORS, [options?: BoardbotErrorOptions | undefined]>) {
    super(code, CORE_ERRORS.message(code, args), options);
  }
}

/** Why a streamed answer stopped before its source ended. */
export type StreamStopReason = 'failed' | 'idle' | 'too_long_running' | 'too_long' | 'interrupted' | 'lost';

const STOP_WHY: Record<StreamStopReason, (limit: number) => string> = {
  failed: () => 'its source threw',
  idle: (ms) => `its source gave no text for ${ms} ms (idleTimeoutMs)`,
  too_long_running: (ms) => `it ran past ${ms} ms (maxDurationMs)`,
  too_long: (n) => `its text grew past ${n} characters (maxLength)`,
  interrupted: () => 'the bot began to stop (stop()); the next start handles the event again and completes the answer',
  lost: () =>
    "this replica lost the event's partition (its lease expired); the new owner handles the event again and completes the answer",
};

/**
 * A streamed answer (`ctx.stream`) stopped before its source ended: the source threw, stalled past
 * `idleTimeoutMs`, or the answer outgrew `maxDurationMs` or `maxLength`. The answer already ends with a
 * visible marker, so the runtime sends no apology; the error hooks get this error (its `cause` is the
 * source's own error).
 */
export class StreamStoppedError extends BoardbotCoreError {
  /** The person has seen the answer end with a marker: no apology is sent. */
  readonly personTold = true;

  /**
   * @param handler - `Class.method` of the handler
   * @param reason - why it stopped
   * @param limit - the bound it crossed (ms or characters), for the message
   * @param cause - the source's error, when it threw
   */
  constructor(
    handler: string,
    readonly reason: StreamStopReason,
    limit: number,
    cause?: unknown,
  ) {
    super('BOARDBOT_STREAM_STOPPED', [handler, STOP_WHY[reason](limit)], cause === undefined ? undefined : { cause });
  }
}

/**
 * A write of a streamed answer met `422 idempotency_key_reused`: unlike a plain reply, a stream
 * never takes that as "already applied" (its parts are found again through their record and keys,
 * so a refusal means this run diverged before the stream started).
 */
export class StreamKeyReusedError extends BoardbotCoreError {
  /** @param handler - `Class.method` of the handler @param cause - the REST client's error */
  constructor(handler: string, cause: unknown) {
    super('BOARDBOT_STREAM_KEY_REUSED', [handler], { cause });
  }
}

/**
 * Decorator metadata (`design:type`, `design:paramtypes`) is missing, so a type cannot be inferred.
 * Thrown when the code was compiled without `emitDecoratorMetadata` (esbuild, tsx).
 */
export class MissingMetadataError extends BoardbotCoreError {
  /**
   * @param what - what lacks metadata, e.g. `RollOptions.sides`
   * @param explicitFix - the explicit alternative, e.g. `give @Option({ type: 'integer' })`
   */
  constructor(what: string, explicitFix: string) {
    super('BOARDBOT_MISSING_METADATA', [what, explicitFix]);
  }
}

/** A constructor parameter names a class that is not among the providers, or no class at all. */
export class MissingProviderError extends BoardbotCoreError {
  /**
   * @param consumer - the class being constructed
   * @param dependency - name of the missing class, or undefined when the parameter has no class type
   * @param index - zero-based constructor parameter index
   */
  constructor(consumer: string, dependency: string | undefined, index: number) {
    super('BOARDBOT_MISSING_PROVIDER', [consumer, dependency, index]);
  }
}

/** `inject()` was called where no class is being built (not in a constructor or field initializer). */
export class InjectOutsideError extends BoardbotCoreError {
  /** @param what - the provider or token asked for */
  constructor(what: string) {
    super('BOARDBOT_INJECT_OUTSIDE', [what]);
  }
}

/** Providers depend on each other in a cycle, so none of them can be built first. */
export class CircularDependencyError extends BoardbotCoreError {
  /** @param chain - class names along the cycle, first and last equal */
  constructor(chain: readonly string[]) {
    super('BOARDBOT_CIRCULAR_DEPENDENCY', [chain]);
  }
}

/** A handler class is declared in a way the runtime cannot use. */
export class InvalidHandlerError extends BoardbotCoreError {
  /** @param message - what is wrong and how to fix it */
  constructor(message: string) {
    super('BOARDBOT_INVALID_HANDLER', [message]);
  }
}

/** An `@Option` property cannot be turned into a command option. */
export class InvalidOptionError extends BoardbotCoreError {
  /** @param message - what is wrong and how to fix it */
  constructor(message: string) {
    super('BOARDBOT_INVALID_OPTION', [message]);
  }
}

/** The derived command set breaks the platform's rules (CONTRACT.md "Limits" and command-set decisions). */
export class InvalidCommandsError extends BoardbotCoreError {
  /** Each problem, naming the class and property it comes from. */
  readonly problems: readonly string[];

  /** @param problems - one line per problem */
  constructor(problems: readonly string[]) {
    super('BOARDBOT_INVALID_COMMANDS', [problems]);
    this.problems = problems;
  }
}

/** `commandSync: 'check'` found registered commands that differ from the declared ones. */
export class CommandsDriftError extends BoardbotCoreError {
  /** @param plan - the formatted sync plan */
  constructor(plan: string) {
    super('BOARDBOT_COMMANDS_DRIFT', [plan]);
  }
}

/**
 * A handler did not settle within `handlerTimeoutMs`: its slot was freed, its `ctx.signal` aborted
 * (with this error as the reason) and its later writes are dropped.
 */
export class HandlerTimeoutError extends BoardbotCoreError {
  /**
   * @param handler - `Class.method` of the handler
   * @param ms - the timeout that passed
   */
  constructor(handler: string, ms: number) {
    super('BOARDBOT_HANDLER_TIMEOUT', [handler, ms]);
  }
}

/**
 * `stop()` waited `shutdownTimeoutMs` and the handler was still running: the reason its `ctx.signal`
 * is aborted with. Its writes are dropped from then on.
 */
export class ShutdownTimeoutError extends BoardbotCoreError {
  /**
   * @param handler - `Class.method` of the handler
   * @param ms - the shutdown timeout that passed
   */
  constructor(handler: string, ms: number) {
    super('BOARDBOT_SHUTDOWN_TIMEOUT', [handler, ms]);
  }
}

/**
 * A handler wrote (reply, follow-up, send, edit, delete) through its context after it was abandoned
 * (its timeout, or the bot's stop): the write was not sent, so that it cannot follow the apology.
 */
export class WriteDroppedError extends BoardbotCoreError {
  /** `Class.method` of the handler. */
  readonly handler: string;
  /** The context method that was refused, e.g. `reply`. */
  readonly operation: string;

  /**
   * @param handler - `Class.method` of the handler
   * @param operation - the context method, e.g. `reply`
   * @param reason - why the handler was abandoned (its signal's reason)
   */
  constructor(handler: string, operation: string, reason: unknown) {
    const why =
      reason instanceof ShutdownTimeoutError
        ? 'the bot stopped'
        : reason instanceof RunCancelledError
          ? 'a newer message cancelled it'
          : 'it ran past handlerTimeoutMs';
    super('BOARDBOT_WRITE_DROPPED', [handler, operation, why], { cause: reason });
    this.handler = handler;
    this.operation = operation;
  }
}

/**
 * The platform refused a sixth answer to one interaction (`410 interaction_exhausted`): it accepts
 * 5 (the reply and 4 follow-ups). Thrown unless `createBot({ exhaustedInteraction: 'send' })`.
 */
export class InteractionExhaustedError extends BoardbotCoreError {
  /**
   * @param command - the command, e.g. `/roll` or `/note add`
   * @param cause - the platform's answer (an `ApiError` of `@boardbot/rest`)
   */
  constructor(command: string, cause?: unknown) {
    super('BOARDBOT_INTERACTION_EXHAUSTED', [command], { cause });
  }
}

/**
 * A newer message of the same burst cancelled this run (burst `'latest'`): the reason of its
 * `ctx.signal`. Not a failure: the runtime says nothing to the person, the newest message runs next.
 */
export class RunCancelledError extends BoardbotCoreError {
  /** @param handler - `Class.method` of the cancelled listener */
  constructor(handler: string) {
    super('BOARDBOT_RUN_CANCELLED', [handler]);
  }
}

/** Listeners declare a burst policy while `orderBy` is `'none'`: refused when the bot is created. */
export class BurstUnorderedError extends BoardbotCoreError {
  /** @param listeners - `Class.method` of each listener with a burst policy */
  constructor(listeners: readonly string[]) {
    super('BOARDBOT_BURST_UNORDERED', [listeners]);
  }
}

/** `createBot` options are missing or invalid. */
export class InvalidConfigError extends BoardbotCoreError {
  /** @param message - what is wrong and how to fix it */
  constructor(message: string) {
    super('BOARDBOT_INVALID_CONFIG', [message]);
  }
}

/** A lifecycle method was called in the wrong state (e.g. `start()` twice). */
export class BotStateError extends BoardbotCoreError {
  /** @param message - what was called in which state */
  constructor(message: string) {
    super('BOARDBOT_BOT_STATE', [message]);
  }
}

/**
 * An interaction expired before an event handled again after a restart could answer it. Its first
 * run may have answered already, so the runtime does not fall back to a board message (that could
 * answer twice); the handler stops here, and the runtime logs it.
 */
export class InteractionExpiredError extends BoardbotCoreError {
  /** @param command - the command as people typed it, e.g. `/roll` */
  constructor(command: string) {
    super('BOARDBOT_INTERACTION_EXPIRED', [command]);
  }
}

/** A middleware called `next()` a second time; the chain and the handler had already been run once. */
export class MiddlewareNextTwiceError extends BoardbotCoreError {
  constructor() {
    super('BOARDBOT_MIDDLEWARE_NEXT_TWICE', []);
  }
}

/**
 * `BOARDBOT_REDIS_URL` asks for replicas, but the bot was given no adapter to provide them (core loads
 * none by itself: `scale: redis()`, or `boardbot start` from the bot's definition, gives one).
 */
export class ScaleUnavailableError extends BoardbotCoreError {
  /**
   * @param why - what is missing, e.g. `the bot was given no replica adapter`
   * @param cause - the error behind it, if any
   */
  constructor(why: string, cause?: unknown) {
    super('BOARDBOT_SCALE_UNAVAILABLE', [why], { cause });
  }
}

/** A session update produced a value that fails its class's constraints; nothing was written. */
export class InvalidSessionError extends BoardbotCoreError {
  /**
   * @param session - the session's name
   * @param problems - one line per failed constraint
   */
  constructor(session: string, problems: readonly string[]) {
    super('BOARDBOT_INVALID_SESSION', [session, problems]);
  }
}

/** `ctx.t` was called for a key of the bot's own while the bot has no i18n plugin. */
export class NoTranslationsError extends BoardbotCoreError {
  /** @param key - the key asked for */
  constructor(key: string) {
    super('BOARDBOT_NO_TRANSLATIONS', [key]);
  }
}

/** `setLocale` was given a locale the i18n plugin has no resources for. */
export class UnknownLocaleError extends BoardbotCoreError {
  /**
   * @param locale - the locale given
   * @param known - the locales the plugin has resources for
   */
  constructor(locale: string, known: readonly string[]) {
    super('BOARDBOT_UNKNOWN_LOCALE', [locale, known]);
  }
}

/** A session update lost its compare-and-set to other writers on every attempt. */
export class SessionConflictError extends BoardbotCoreError {
  /**
   * @param session - the session's name
   * @param attempts - how many times it tried
   */
  constructor(session: string, attempts: number) {
    super('BOARDBOT_SESSION_CONFLICT', [session, attempts]);
  }
}

/** A session was opened where its key cannot be made (no person, or no board). */
export class SessionScopeError extends BoardbotCoreError {
  /**
   * @param session - the session's name
   * @param per - how it is keyed
   */
  constructor(session: string, per: string) {
    super('BOARDBOT_SESSION_SCOPE', [session, per]);
  }
}

/** An `@Every` interval, a `@Cron` expression or its time zone is not valid (thrown by the decorator or `createBot`). */
export class InvalidScheduleError extends BoardbotCoreError {
  /**
   * @param what - the decorator and the schedule
   * @param fix - what a valid one looks like
   */
  constructor(what: string, fix: string) {
    super('BOARDBOT_INVALID_SCHEDULE', [what, fix]);
  }
}

/**
 * Thrown by `start()` when a regular expression that a stranger's text reaches (a listener's, or a
 * `@Matches` validator's of an options or answer class) can backtrack catastrophically, or could not
 * be checked: a short message could stall the whole process. The message shows each pattern, where it
 * is declared and an attack's shape (or why it was not decided).
 */
export class UnsafeRegexError extends BoardbotCoreError {
  /**
   * Each refused pattern: where it is declared (`Class.method`, `Class.property`), the pattern, its
   * complexity and an attack string's shape, or why the checker could not decide.
   */
  readonly problems: readonly string[];

  /**
   * @param problems - one line per refused pattern, the undecided ones last
   * @param undecided - how many of them the checker could not decide @defaultValue 0
   */
  constructor(problems: readonly string[], undecided = 0) {
    super('BOARDBOT_UNSAFE_REGEX', [problems, undecided]);
    this.problems = problems;
  }
}

/** `createBot` was given an option it does not know (a misspelt name would otherwise be ignored). */
export class UnknownBotOptionError extends BoardbotCoreError {
  /** Each unknown option, with the known names nearest to it. */
  readonly unknown: readonly UnknownName[];

  /** @param unknown - each unknown option and its nearest known names */
  constructor(unknown: readonly UnknownName[]) {
    super('BOARDBOT_UNKNOWN_BOT_OPTION', [unknown]);
    this.unknown = unknown;
  }
}

/**
 * An agent's turn reached one of its bounds (`defineAgent`): a tool call past `maxToolCalls` (the
 * model gets it as the tool's error), or a turn past the person's `turnsPerMinute`.
 */
export class AgentBoundError extends BoardbotCoreError {
  /**
   * @param bound - the option whose bound was reached
   * @param limit - its value
   */
  constructor(bound: 'maxToolCalls' | 'turnsPerMinute', limit: number) {
    super('BOARDBOT_AGENT_BOUND', [bound, limit]);
  }
}

/**
 * A board kit's tool (`boardTools`, `@boardbot/core/agents`) was asked to read or write on a board the
 * asking person is not a member of: the assistant acts for that person and sees only what they can
 * open, so a private board the bot is on stays closed to them (a confused deputy). The AI SDK hands it
 * to the model as the tool's error.
 */
export class BoardNotOpenError extends BoardbotCoreError {
  /** The board asked for. */
  readonly boardId: string;

  /**
   * @param tool - the tool's name
   * @param boardId - the board asked for
   */
  constructor(tool: string, boardId: string) {
    super('BOARDBOT_BOARD_NOT_OPEN', [tool, boardId]);
    this.boardId = boardId;
  }
}

/**
 * A board kit's write tool was called after the turn made its `maxWrites` writes: the model's
 * writes are bounded per turn, so a looping model cannot flood a board. The model gets it as the
 * tool's error.
 */
export class ToolWritesSpentError extends BoardbotCoreError {
  /**
   * @param tool - the tool's name
   * @param max - the turn's bound
   */
  constructor(tool: string, max: number) {
    super('BOARDBOT_TOOL_WRITES_SPENT', [tool, max]);
  }
}

/**
 * A command run as a model's tool (`commandTools`, `@boardbot/core/agents`) did not give an answer:
 * the asking person may not run it (a guard, a cooldown), its options were invalid, or it failed.
 * The AI SDK hands it to the model as the tool's error, so the model can call again.
 */
export class ToolRefusedError extends BoardbotCoreError {
  /** `refused`: a guard, a cooldown or invalid options; `failed`: the handler threw. */
  readonly reason: 'refused' | 'failed';
  /** What the person would have been told (the refusal, the apology). */
  readonly told: string;

  /**
   * @param command - the command as typed (`/roll`)
   * @param reason - why it gave no answer
   * @param told - what the person would have been told
   */
  constructor(command: string, reason: 'refused' | 'failed', told: string) {
    super('BOARDBOT_TOOL_REFUSED', [command, told]);
    this.reason = reason;
    this.told = told;
  }
}

/**
 * A command with guards (roles, permissions, a plugin's) was asked to run for an agent outside the bot
 * (`openBotCommands`, the MCP server) with no person to run it as: its guards decide by the person, so
 * it is refused rather than run as the app.
 */
export class CommandNeedsPersonError extends BoardbotCoreError {
  /**
   * @param command - the command as typed (`/ban`)
   * @param guards - the names of its guards
   */
  constructor(command: string, guards: readonly string[]) {
    super('BOARDBOT_COMMAND_NEEDS_PERSON', [command, guards]);
  }
}

/**
 * A command was asked to run, for an agent outside the bot, as someone who is not a member of the
 * board (or on a board the app is not on): a command runs as a person only where that person is.
 */
export class NotBoardMemberError extends BoardbotCoreError {
  /** The board asked for. */
  readonly boardId: string;

  /**
   * @param command - the command as typed (`/roll`)
   * @param who - whom it would have run as (`user <id>`, `the app`)
   * @param boardId - the board
   */
  constructor(command: string, who: string, boardId: string) {
    super('BOARDBOT_NOT_BOARD_MEMBER', [command, who, boardId]);
    this.boardId = boardId;
  }
}

/**
 * A hosted app's token could not be had: its environment variable is not set, or its resolver gave
 * nothing or failed. The app is reported and not started; the host's other apps go on.
 */
export class AppTokenMissingError extends BoardbotCoreError {
  /**
   * @param app - the app's id in the host
   * @param where - what was asked and what came back (never the token)
   * @param cause - the resolver's error, if it threw
   */
  constructor(app: string, where: string, cause?: unknown) {
    super('BOARDBOT_APP_TOKEN_MISSING', [app, where], { cause });
  }
}

/** `host.remove(id)` or `host.retoken(id)` named an app the host does not run. */
export class UnknownAppError extends BoardbotCoreError {
  /**
   * @param app - the id given
   * @param known - the ids of the apps the host runs
   */
  constructor(app: string, known: readonly string[]) {
    super('BOARDBOT_UNKNOWN_APP', [app, known]);
  }
}

/**
 * `bot.broadcast()` was called with the id of a broadcast begun with another message or other named
 * boards: a broadcast resumes under its id, so the id cannot mean two messages.
 */
export class BroadcastChangedError extends BoardbotCoreError {
  /**
   * @param id - the broadcast's id
   * @param what - what differs from its first call
   */
  constructor(id: string, what: 'body' | 'boards') {
    super('BOARDBOT_BROADCAST_CHANGED', [id, what]);
  }
}

/** `bot.broadcast()` was called with an id, boards or a message it cannot send, or before the bot runs. */
export class InvalidBroadcastError extends BoardbotCoreError {
  /** @param problem - what is wrong and how to fix it */
  constructor(problem: string) {
    super('BOARDBOT_INVALID_BROADCAST', [problem]);
  }
}
