import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How the handlers of one event ended: all finished (`failed` and `abandoned` false), at least one
 * failed (threw, or ran past `handlerTimeoutMs`), or at least one was abandoned at shutdown (it did
 * not finish, so the event is not done). Replicas read it: a failed event is delivered again, up to a
 * bound, and an abandoned one is left for the next owner of its partition.
 */
export interface DispatchOutcome {
  failed: boolean;
  abandoned: boolean;
}

// The outcome being collected for the dispatch the caller is in: set by `dispatchOutcome`, written by
// the policies when a handler run ends badly, wherever in the event's handlers that happens.
const collecting = new AsyncLocalStorage<DispatchOutcome>();

/**
 * Runs one event's dispatch and collects how its handlers ended.
 * @param dispatch - the dispatch; a rejection counts as a failure
 */
export async function dispatchOutcome(dispatch: () => Promise<void>): Promise<DispatchOutcome> {
  const outcome: DispatchOutcome = { failed: false, abandoned: false };
  try {
    await collecting.run(outcome, dispatch);
  } catch {
    outcome.failed = true;
  }
  return outcome;
}

/**
 * Records that a handler run of the current dispatch ended badly.
 * @param how - `failed` (it threw or timed out) or `abandoned` (a shutdown gave up on it)
 */
export function noteRunEnded(how: 'failed' | 'abandoned'): void {
  const outcome = collecting.getStore();
  if (outcome) outcome[how] = true;
}
