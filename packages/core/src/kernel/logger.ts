import { fileURLToPath } from 'node:url';
import type { Logger } from '@boardbot/protocol';
import { silentLogger } from '@boardbot/protocol/runtime';
import { type DestinationStream, type LoggerOptions, pino } from 'pino';
import { readEnvironment } from './environment.js';
import { CENSOR, mergeRedact, REDACT_PATHS, withTokenRedaction } from './redaction.js';

export { REDACT_PATHS } from './redaction.js';

/** What `createBot({ logger })` accepts: a logger (pino fits), pino options, or `false` for silence. */
export type LoggerInput = Logger | LoggerOptions | false;

/** Whether `input` is a logger rather than pino options. */
export function isLogger(input: unknown): input is Logger {
  const l = input as Partial<Logger> | null;
  return typeof l === 'object' && l !== null && typeof l.child === 'function' && typeof l.info === 'function';
}

/**
 * The bot's root logger: the given one (a pino logger also redacts the token paths, beside its own
 * redaction), or a pino logger built from {@link loggerOptions}.
 *
 * @param input - a logger, pino options, or false
 * @param isTTY - whether stdout is a terminal
 * @param destination - where a logger built here writes (tests); stdout by default
 */
export function createLogger(
  input: LoggerInput | undefined,
  isTTY = process.stdout.isTTY === true,
  destination?: DestinationStream,
): Logger {
  // Silence is a logger that does nothing, not a disabled pino: a disabled pino still serializes the
  // bindings of every child, and the runtime makes one per event.
  if (input === false) return silentLogger;
  if (isLogger(input)) return withTokenRedaction(input);
  const options = loggerOptions(input, isTTY);
  const make = (o: LoggerOptions) => (destination ? pino(o, destination) : pino(o));
  if (input?.redact !== undefined) return make(options);
  // Without paths of the bot's own, the token paths are censored the way a given logger's are (copied
  // along the paths that are there) rather than by pino's redaction, which copies each line and each
  // child's bindings along every wildcard path: with the default logger, a fifth of the CPU of a
  // handled event (its child logger and its `handled` line).
  const { redact: _pinoRedaction, ...rest } = options;
  return withTokenRedaction(make(rest));
}

/**
 * The pino options of the bot's own logger: the defaults, then the given options, with their
 * `redact` paths merged with the token paths (pino's `redact` would otherwise replace them).
 *
 * @param input - pino options from `createBot({ logger })`
 * @param isTTY - whether stdout is a terminal
 */
export function loggerOptions(input: LoggerOptions | undefined, isTTY: boolean): LoggerOptions {
  return { ...defaultLoggerOptions(isTTY, input?.level), ...input, redact: mergeRedact(input?.redact) };
}

/**
 * What pino-pretty prints in a terminal: one line per record (`12:00:01 INFO: bot started
 * {"boards":2,"commands":1}`), without the fields a person reading along does not need (the process,
 * the host, the logger's name, the correlation ids, which are for searching JSON logs, and the command
 * sync plan, whose `added`, `changed` and `removed` say the same); ids shortened (`terminal-log.ts`).
 */
export const TERMINAL_LOG_FORMAT = {
  colorize: true,
  singleLine: true,
  translateTime: 'SYS:HH:MM:ss',
  ignore: 'pid,hostname,name,correlation_id,phase,plan',
} as const;

/** The module pino's worker loads for the terminal format: pino-pretty with the ids shortened. */
const TERMINAL_LOG_TARGET = fileURLToPath(new URL('./terminal-log.js', import.meta.url));

/** The levels at which a boardbot error's stack is shown in the terminal. */
const STACK_LEVELS: readonly string[] = ['debug', 'trace'];

/**
 * The runtime's default pino options: `LOG_LEVEL` (else `info`), tokens redacted, and compact
 * pino-pretty lines ({@link TERMINAL_LOG_FORMAT}) when stdout is a terminal, unless
 * `NODE_ENV=production`; JSON lines otherwise, for log collectors.
 *
 * @param isTTY - whether stdout is a terminal
 * @param level - the level the bot's options give, if any (a boardbot error's stack is shown in the
 *   terminal at debug and below)
 */
export function defaultLoggerOptions(isTTY: boolean, level?: string): LoggerOptions {
  const env = readEnvironment();
  const pretty = isTTY && env.NODE_ENV !== 'production';
  const chosen = level ?? env.LOG_LEVEL ?? 'info';
  const options = { ...TERMINAL_LOG_FORMAT, stacks: STACK_LEVELS.includes(chosen) };
  return {
    name: 'boardbot',
    level: chosen,
    redact: { paths: [...REDACT_PATHS], censor: CENSOR },
    ...(pretty ? { transport: { target: TERMINAL_LOG_TARGET, options } } : {}),
  };
}

/** Flushes a pino logger's buffered lines; a no-op for loggers that cannot flush. */
export function flushLogger(log: Logger): Promise<void> {
  const flush = (log as { flush?: (cb?: (err?: Error) => void) => void }).flush;
  if (typeof flush !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    try {
      flush.call(log, () => resolve());
    } catch {
      resolve();
    }
  });
}
