/**
 * A failure the bot's log has said already (its `start failed` line, with the code, the message and
 * its fix): `runCli` ends with exit code 1 without printing it a second time. Thrown only where the
 * CLI gave the bot its logger at a level that shows errors.
 */
export class LoggedFailure extends Error {
  /** @param error - the failure, as the bot's log said it */
  constructor(override readonly cause: unknown) {
    super('the bot could not start (its log said why)', { cause });
    this.name = 'LoggedFailure';
  }
}

/** The levels at which a bot's log shows an `error` line. */
const SHOWING_ERRORS: readonly string[] = ['error', 'warn', 'info', 'debug', 'trace'];

/**
 * Whether a bot logging at `level` says its start failure itself.
 * @param level - the bot's log level
 */
export function logsErrors(level: string): boolean {
  return SHOWING_ERRORS.includes(level);
}
