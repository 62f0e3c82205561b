import type { EventEmitter } from 'node:events';

/**
 * Callers waiting for an interaction's next answer (the control API's `/interactions/{id}/wait`).
 * Each wait ends at the next answer, at its timeout, or when the emulator closes.
 */
export class AnswerWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /**
   * Resolves at the next answer to `interactionId`, after `timeoutMs`, or when `response` closes
   * (the caller went away), whichever comes first. The response's own `close` is listened to, not an
   * `AbortSignal`: a signal per wait, and the `DOMException` each abort builds, cost more than the
   * wait's own work.
   *
   * @param response - The waiting HTTP response (its `close` ends the wait), if any.
   */
  next(interactionId: string, timeoutMs: number, response?: EventEmitter): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiting.get(interactionId);
      if (!set) {
        set = new Set();
        this.waiting.set(interactionId, set);
      }
      const done = () => {
        clearTimeout(timer);
        response?.removeListener('close', done);
        const s = this.waiting.get(interactionId);
        s?.delete(done);
        if (s?.size === 0) this.waiting.delete(interactionId);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      response?.once('close', done);
      set.add(done);
    });
  }

  /** How many waits are pending. */
  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }

  /** Wakes everyone waiting on `interactionId`. */
  notify(interactionId: string): void {
    for (const done of [...(this.waiting.get(interactionId) ?? [])]) done();
  }

  /** Wakes everyone (shutdown). */
  releaseAll(): void {
    for (const id of [...this.waiting.keys()]) this.notify(id);
  }
}
