import type { ReadyEvent } from '@boardbot/protocol';
import { isDuplicateId, smallDecimal } from './event-id.js';

/** What the resume point decides about one event. */
export type Admission = 'accept' | 'duplicate';

/**
 * The id the client resumes from and drops duplicates against: the last event it accepted.
 *
 * CONTRACT: ids are strictly increasing per app and a resume replays every retained id greater than
 * `Last-Event-ID`. A `ready` frame is per connection: it is always delivered and, when the stream is
 * resumed, does not move the resume point (the replay that follows it may carry lower ids than the
 * `ready` itself, and must not be mistaken for duplicates). A `ready` that starts a fresh stream
 * (`resumed: false`) resets the point to its own id: older ids mean nothing on that stream (a gap, or
 * a server that lost its history), and the next reconnect must not ask for events before it.
 */
export class ResumePoint {
  #id: string | undefined;
  // The point as a number when it is a small decimal (the contract's case), else -1.
  #value = -1;

  /** @param initial - The id the application persisted, if any. */
  constructor(initial: string | undefined) {
    this.#set(initial);
  }

  /** The id to send as `Last-Event-ID`. */
  get id(): string | undefined {
    return this.#id;
  }

  /**
   * Decides whether an ordinary event is new, and if so moves the point to it.
   *
   * @param id - The event's id (events without an id are always accepted and move nothing).
   */
  admit(id: string): Admission {
    const value = smallDecimal(id);
    if (value >= 0 && this.#value >= 0) {
      // Fast path for every event of a contract stream: two numbers.
      if (value <= this.#value) return 'duplicate';
      this.#id = id;
      this.#value = value;
      return 'accept';
    }
    if (isDuplicateId(id, this.#id)) return 'duplicate';
    if (id !== '') this.#set(id);
    return 'accept';
  }

  /**
   * Applies a `ready` frame.
   *
   * @param ready - Its payload.
   * @param id - Its id.
   */
  ready(ready: ReadyEvent, id: string): void {
    if (ready.resumed) return;
    this.#set(id === '' ? undefined : id);
  }

  #set(id: string | undefined): void {
    this.#id = id;
    this.#value = id === undefined ? -1 : smallDecimal(id);
  }
}
