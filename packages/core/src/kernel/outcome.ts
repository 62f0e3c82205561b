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
