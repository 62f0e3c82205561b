import { HandlerTimeoutError, ShutdownTimeoutError } from '../errors.js';
import type { HandlerOutcome } from '../telemetry/metrics-sink.js';
import type { Passage } from './stages.js';

/** How a run that did not return ended, as an {@link EndingRule} says. */
export interface Ending {
  /** What the run's `handled` line, its metric and its span say. */
  outcome: HandlerOutcome;
  /** A failure: the error hooks run, the person hears the apology, the event counts as failed. */
  failed?: boolean;
  /**
   * Not done: the event is left unfinished (above the resume point, unacknowledged by a replica)
   * for the next start, or for its partition's next owner.
   */
  abandoned?: boolean;
  /** Says why on the run's log, before the run is reported. */
  log?(pass: Passage): void;
}

/**
 * Knows how a run ended from what it threw (or what abandoned it): an {@link Ending}, or undefined
 * when the error is not its to judge. A feature pushes its rules (`definePlugin({ endings })`); the
 * first rule that knows an error wins.
 */
export type EndingRule = (error: unknown, pass: Passage) => Ending | undefined;

const ABANDONED: Ending = { outcome: 'abandoned', abandoned: true };
const TIMED_OUT: Ending = { outcome: 'timeout', failed: true };
const FAILED: Ending = { outcome: 'error', failed: true };

/**
 * Supervision's own endings, asked first: a run still going when the bot's stop gave up waiting is
 * abandoned (the next start handles its event); one past `handlerTimeoutMs` failed.
 */
export const SUPERVISION_ENDINGS: readonly EndingRule[] = [
  (error) => (error instanceof ShutdownTimeoutError ? ABANDONED : undefined),
  (error) => (error instanceof HandlerTimeoutError ? TIMED_OUT : undefined),
];

/**
 * How a run ended: the first of `rules` that knows `error`, else a failure.
 * @param rules - supervision's, then the features' in the order they were given
 * @param error - what the run threw, or why it was abandoned
 * @param pass - the run
 */
export function endingOf(rules: readonly EndingRule[], error: unknown, pass: Passage): Ending {
  for (const rule of rules) {
    const ending = rule(error, pass);
    if (ending) return ending;
  }
  return FAILED;
}

/**
 * A run that met an earlier run's write of its event stops quietly: its effects are the first run's.
 * Not a failure: a write the platform had already applied on an earlier run of the same event
 * (`422 idempotency_key_reused`: the run diverged from the first one, whose effects stand), or an
 * interaction that can no longer be answered on a replay.
 */
export const ALREADY_APPLIED: EndingRule = (error) => {
  const { code, apiCode } = (error ?? {}) as { code?: unknown; apiCode?: unknown };
  let why: string;
  if (apiCode === 'idempotency_key_reused') {
    why =
      'already applied: an earlier run of this event made this write (422 idempotency_key_reused); its effects stand and this run stops here';
  } else if (code === 'BOARDBOT_INTERACTION_EXPIRED') {
    why =
      'the interaction expired before this replay could answer it; not answering on the board, the first run may have answered';
  } else return undefined;
  return {
    outcome: 'already_applied',
    log: ({ ctx, target }) => ctx.log.info({ handler: target.label, code, api_code: apiCode }, why),
  };
};
