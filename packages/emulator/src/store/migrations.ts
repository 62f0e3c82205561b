/**
 * The schema, as an ordered list of migrations; `PRAGMA user_version` records how many ran. A
 * migration is never edited once released: a change is a new entry at the end.
 *
 * Layout choices, for the hot paths:
 * - `messages` is clustered on `(board_id, seq)` (WITHOUT ROWID), so a page of the list is one
 *   range scan whatever the board's size (keyset paging), and stores each message's JSON as sent,
 *   so a list is a string join, not a parse and re-serialize.
 * - `events` is clustered on `(app_id, id)`: per-app ids, replay is one range scan.
 * - an app is installed on a board exactly when its bot user is a member of it (role `app`), so
 *   there is one source of truth for installs.
 * - (2) the per-board `seq` and per-app event id counters live in memory, loaded from `max(seq)` and
 *   `max(id)` (see counters.ts), so a send does not rewrite the board's and the app's rows.
 * - (3) no interaction token at rest: each is an HMAC of its interaction's id under a secret kept in
 *   `secrets`, recomputed when an `interaction.create` event is replayed, so the log stores the event
 *   without it. Tokens already in the log are removed (those interactions, made before the upgrade,
 *   replay with a token that no longer matches, and expire 15 minutes after their invocation anyway).
 * - (4) the expiry watcher's query (`EXPIRED_BETWEEN_SQL`) is a range scan of a partial index on
 *   `expires_at_ms`, instead of a scan of every interaction ever made on each tick; only unanswered
 *   interactions can expire, so only they are in it.
 * - (5) each app's `token_strength` beside its `token_hash`, judged when the token is made (the hash
 *   alone cannot be judged later): apps stored before keep every other column as it was and get
 *   `unknown`, which an emulator listening beyond loopback refuses like `weak` (auth/exposure.ts).
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL,
    avatar_url TEXT,
    is_bot INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE boards (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT,
    created_at TEXT NOT NULL,
    last_seq INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE members (
    board_id TEXT NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (board_id, user_id)
  ) WITHOUT ROWID;
  CREATE INDEX members_by_user ON members(user_id, board_id);
  CREATE TABLE apps (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT,
    bot_user_id TEXT NOT NULL UNIQUE REFERENCES users(id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    last_event_id INTEGER NOT NULL DEFAULT 0,
    pruned_through INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE messages (
    board_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    id TEXT NOT NULL UNIQUE,
    author TEXT,
    deleted INTEGER NOT NULL DEFAULT 0,
    json TEXT NOT NULL,
    PRIMARY KEY (board_id, seq)
  ) WITHOUT ROWID;
  CREATE TABLE commands (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    json TEXT NOT NULL,
    UNIQUE (app_id, name)
  );
  CREATE TABLE interactions (
    id TEXT PRIMARY KEY,
    app_id TEXT NOT NULL,
    board_id TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    expires_at_ms INTEGER NOT NULL,
    answers INTEGER NOT NULL DEFAULT 0,
    json TEXT NOT NULL
  );
  CREATE INDEX interactions_by_board ON interactions(board_id);
  CREATE TABLE interaction_answers (
    interaction_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    board_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (interaction_id, n)
  ) WITHOUT ROWID;
  CREATE TABLE events (
    app_id TEXT NOT NULL,
    id INTEGER NOT NULL,
    name TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (app_id, id)
  ) WITHOUT ROWID;
  CREATE TABLE idempotency (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_by_age ON idempotency(created_at_ms);
  `,
  `
  ALTER TABLE boards DROP COLUMN last_seq;
  ALTER TABLE apps DROP COLUMN last_event_id;
  `,
  `
  CREATE TABLE secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
  UPDATE events SET data = json_remove(data, '$.interaction.token') WHERE name = 'interaction.create';
  `,
  `
  CREATE INDEX interactions_unanswered_by_expiry ON interactions(expires_at_ms) WHERE answers = 0;
  `,
  `
  ALTER TABLE apps ADD COLUMN token_strength TEXT NOT NULL DEFAULT 'unknown'
    CHECK (token_strength IN ('strong', 'weak', 'unknown'));
  `,
];
