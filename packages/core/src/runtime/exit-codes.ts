/**
 * The exit codes of a bot that owns its process (`handleSignals`, the default), stable so that a
 * process manager or a script can tell them apart. `docs/production.md` lists them; a test ties
 * that table to these values.
 */
export const BOT_EXIT_CODES = {
  /** Stopped gracefully after SIGINT or SIGTERM: every received event was handled. */
  stopped: 0,
  /**
   * Stopped for good: the platform refused the token on the gateway (401/403), or stopping itself
   * failed. (Node also exits with 1 when a top-level `await bot.start()` rejects.)
   */
  failed: 1,
  /**
   * Stopped after a signal, but `shutdownTimeoutMs` passed first: handlers still running were
   * abandoned and events not started were dropped. `timeout(1)` uses the same code for "timed out".
   */
  shutdownTimedOut: 124,
  /** A second signal during the graceful stop: exited at once, without waiting. */
  interrupted: 130,
} as const;

/** One of {@link BOT_EXIT_CODES}. */
export type BotExitCode = (typeof BOT_EXIT_CODES)[keyof typeof BOT_EXIT_CODES];

/** What `bot.stop()` left undone when `shutdownTimeoutMs` passed. */
export interface StopReport {
  /** Handlers still running: their `ctx.signal` was aborted and their later writes are dropped. */
  readonly abandoned: readonly { readonly handler: string; readonly eventId: string }[];
  /** Events received but not started: dropped, never handled. */
  readonly unhandled: number;
}

/**
 * The exit code after a graceful stop: 0 when it finished everything, else
 * {@link BOT_EXIT_CODES.shutdownTimedOut}.
 * @param report - what `bot.stop()` resolved with
 */
export function exitCodeAfterStop(report: StopReport): BotExitCode {
  return report.abandoned.length > 0 || report.unhandled > 0 ? BOT_EXIT_CODES.shutdownTimedOut : BOT_EXIT_CODES.stopped;
}
