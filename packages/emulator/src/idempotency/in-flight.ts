/**
 * `Idempotency-Key`s whose first request is still being received or processed. A second request with
 * the same key meanwhile is `409 idempotency_in_progress` (CONTRACT, as in the IETF draft). Keys are
 * held from the moment the request's head arrives until its answer is sent or it is aborted.
 */
export class InFlightKeys {
  private readonly held = new Set<string>();

  /** Holds `key` of `scope`; false if it is already held. */
  hold(scope: string, key: string): boolean {
    const k = `${scope}\n${key}`;
    if (this.held.has(k)) return false;
    this.held.add(k);
    return true;
  }

  /** Releases a held key. */
  release(scope: string, key: string): void {
    this.held.delete(`${scope}\n${key}`);
  }
}
