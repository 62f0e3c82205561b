import type { Logger } from '@boardbot/protocol';
import { type LoggerOptions, pino } from 'pino';

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

/**
 * The bot's root logger: the given one as is, or a pino logger with tokens redacted, at
 * `LOG_LEVEL` (default `info`), printed by pino-pretty when stdout is a terminal.
 *
 * @param input - a logger, pino options, or false
 * @param isTTY - whether stdout is a terminal
 */
export function createLogger(input: LoggerInput | undefined, isTTY = process.stdout.isTTY === true): Logger {
  if (input === false) return pino({ enabled: false });
  if (isLogger(input)) return input;
  const options: LoggerOptions = {
    name: 'boardbot',
    level: process.env.LOG_LEVEL ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(isTTY ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
    ...input,
  };
  return pino(options);
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
