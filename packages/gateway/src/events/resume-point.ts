import type { ReadyEvent } from '@boardbot/protocol';
import { isDuplicateId } from './event-id.js';

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

  /** @param initial - The id the application persisted, if any. */
  constructor(initial: string | undefined) {
    this.#id = initial;
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
    if (isDuplicateId(id, this.#id)) return 'duplicate';
    if (id !== '') this.#id = id;
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
    this.#id = id === '' ? undefined : id;
  }
}
