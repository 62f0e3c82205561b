/**
 * The exit codes of `boardbot`, stable so that scripts and CI can branch on them (documented in the
 * package README and `docs/cli.md`).
 */
export const EXIT_CODES = {
  /** Done, or stopped cleanly with Ctrl-C. */
  ok: 0,
  /** Something failed while running: the platform refused a call, the bot crashed, a build failed. */
  failure: 1,
  /** The invocation or the configuration is wrong: unknown flag, missing token, no bot module. */
  usage: 2,
  /** `boardbot commands diff` found registered commands that differ from the declared ones. */
  drift: 3,
} as const;

/** One of {@link EXIT_CODES}. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
