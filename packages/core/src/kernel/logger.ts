import type { Logger } from '@boardbot/protocol';
import { type LoggerOptions, type Logger as PinoLogger, pino } from 'pino';

/**
 * Paths pino censors in every line. The runtime never logs a token, but a bot author's
 * `ctx.log.info({ interaction })` must not leak one either.
 */
export const REDACT_PATHS = [
  'token',
  '*.token',
  'interaction.token',
  '*.interaction.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
];

/** What `createBot({ logger })` accepts: a logger (pino fits), pino options, or `false` for silence. */
export type LoggerInput = Logger | LoggerOptions | false;

/** Whether `input` is a logger rather than pino options. */
export function isLogger(input: unknown): input is Logger {
  const l = input as Partial<Logger> | null;
  return typeof l === 'object' && l !== null && typeof l.child === 'function' && typeof l.info === 'function';
}

const REDACT = { paths: REDACT_PATHS, censor: '[redacted]' };

/**
 * A pino logger given without redaction gets a child that redacts the token paths; one that has its
 * own redaction keeps it (a child's `redact` would replace it). Other loggers are used as they are.
 */
function withRedaction(log: Logger): Logger {
  const p = log as Partial<PinoLogger>;
  if (typeof p.bindings !== 'function' || typeof p.levels !== 'object') return log;
  const stringifiers = (p as Record<symbol, Record<symbol, unknown> | undefined>)[pino.symbols.stringifiersSym];
  if (stringifiers?.[pino.symbols.redactFmtSym]) return log;
  return (p as PinoLogger).child({}, { redact: REDACT });
}

/**
 * The bot's root logger: the given one (with the token paths redacted when it is a pino logger
 * without redaction of its own), or a pino logger with tokens redacted, at
 * `LOG_LEVEL` (default `info`), printed by pino-pretty when stdout is a terminal.
 *
 * @param input - a logger, pino options, or false
 * @param isTTY - whether stdout is a terminal
 */
export function createLogger(input: LoggerInput | undefined, isTTY = process.stdout.isTTY === true): Logger {
  if (input === false) return pino({ enabled: false });
  if (isLogger(input)) return withRedaction(input);
  return pino({ ...defaultLoggerOptions(isTTY), ...input });
}

/**
 * The runtime's default pino options: `LOG_LEVEL` (else `info`), tokens redacted, pino-pretty
 * when stdout is a terminal (JSON lines otherwise, for log collectors).
 *
 * @param isTTY - whether stdout is a terminal
 */
export function defaultLoggerOptions(isTTY: boolean): LoggerOptions {
  return {
    name: 'boardbot',
    level: process.env.LOG_LEVEL ?? 'info',
    redact: REDACT,
    ...(isTTY ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
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
