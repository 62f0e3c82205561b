/** One stored state of a session, as a {@link SessionStore} keeps it. */
export interface SessionValue {
  /** The session's class instance, as plain JSON (class-transformer's `instanceToPlain`). */
  data: unknown;
  /** The `version` of the session's definition that wrote it, to tell a changed shape. */
  shape: number;
  /** When the session expires (epoch ms); null: never. */
  expiresAt: number | null;
  /** The keys of the latest updates applied (derived from their events), so a replayed event applies none twice. */
  applied: string[];
  /**
   * What the updates before the latest one wrote, oldest first, so that a replayed update resolves
   * with its own value (the latest update, the last of `applied`, wrote `data`). Bounded in number and
   * in size; absent in values written by versions before it existed, which read as none kept.
   */
  written?: WrittenValue[];
}

/** The value one update wrote, kept beside its key in {@link SessionValue.written}. */
export interface WrittenValue {
  /** The update's key, as in {@link SessionValue.applied}. */
  key: string;
  /** The value it wrote, as plain JSON. */
  data: unknown;
  /** The `version` of the session's definition that wrote it. */
  shape: number;
}

/** A session as read: its version (0: never written) and its value (null: deleted). */
export interface SessionRecord {
  version: number;
  value: SessionValue | null;
}

/**
 * Where sessions live, shared by every instance of a bot. Writes are compare-and-set on a version
 * that each write raises by one, so two events that change one session (on two boards, or in two
 * processes) never lose an update: the one that read an old version fails and is retried.
 *
 * A store for another database (Redis...) implements these three calls: `read` and a `write` that
 * is atomic with its version check (a Lua script, or `WATCH`/`MULTI`), and may drop a record once
 * `expiresAt` has passed (`PEXPIREAT`).
 */
export interface SessionStore {
  /** Where the sessions are kept, for the log (never a secret). */
  readonly description: string;
  /**
   * Reads a session.
   * @param key - the session's key
   * @returns its record, or undefined when it was never written (or was dropped after expiring)
   */
  read(key: string): Promise<SessionRecord | undefined>;
  /**
   * Writes `value` as version `expected + 1`, if and only if the stored version is `expected` (0: none).
   * @param key - the session's key
   * @param expected - the version the writer read
   * @param value - the new value, or null to delete: the version still goes up, or the store forgets the
   *   record and reads it as never written (either way a write from an older version fails)
   * @returns whether it was written; false means someone else wrote first: read again and retry
   */
  write(key: string, expected: number, value: SessionValue | null): Promise<boolean>;
  /** Releases what the store holds open; called by `stop()`. */
  close?(): Promise<void>;
}
