/** A log method in pino's shape: a message, or bindings then a message. */
export interface LogFn {
  (msg: string): void;
  (obj: object, msg?: string): void;
}

/**
 * The logger every boardbot package accepts: a pino logger fits as is. Libraries never log through
 * `console`; they log through this, and the caller decides where it goes.
 */
export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  /** A logger whose every line carries `bindings` (pino's `child`). */
  child(bindings: Record<string, unknown>): Logger;
}

const noop: LogFn = () => {};

/** A logger that drops everything: the default when the caller gives none. */
export const silentLogger: Logger = {
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  child: () => silentLogger,
};
