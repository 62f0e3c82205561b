/**
 * How the handlers of one event ended: all finished (`failed` and `abandoned` false), at least one
 * failed (threw, or ran past `handlerTimeoutMs`), or at least one was abandoned at shutdown (it did
 * not finish, so the event is not done). Replicas read it: a failed event is delivered again, up to a
 * bound, and an abandoned one is left for the next owner of its partition.
 */
export interface DispatchOutcome {
  failed: boolean;
  abandoned: boolean;
  /**
   * Work the event's handlers left running after the dispatch returned: a burst policy holds its
   * message out of its board's ordering slot until the burst's run ends. The event is done (the
   * resume point passes it, replicas acknowledge it) only once these settle; they never reject.
   */
  held?: Promise<void>[];
  /**
   * Whether this process still owns the event: a replica's partition lease, compared with the clock
   * (so a process paused past its lease knows it at once, before its timers catch up). A streamed
   * answer checks it before each write and stops writing when it turns false. Undefined: always.
   */
  owned?: (() => boolean) | undefined;
}

/**
 * Resolves once the work an event's handlers held (see {@link DispatchOutcome.held}) settled, with
 * the outcome as it stands then.
 * @param outcome - the outcome of the event's dispatch
 */
export async function releasedOutcome(outcome: DispatchOutcome): Promise<DispatchOutcome> {
  while (outcome.held && outcome.held.length > 0) await Promise.all(outcome.held.splice(0));
  return outcome;
}
