-- @boardbot/postgres, schema version 1: the tables of the stores. Names are unqualified: they are made
-- in the schema first on the search_path (postgresStores({ schema }) sets it to that schema).

-- Sessions, conversations, schedule claims, answer records and editable links: one row per key,
-- written by compare-and-set on `version`. `value` is the JSON the bot wrote, kept as its text (json,
-- not jsonb: the bot reads back exactly what it wrote); NULL is a deleted session, whose raised
-- version is kept. `drop_at` (epoch ms) is when a sweep may remove the row: a day after it expired, a
-- week after it was deleted, never when NULL.
CREATE TABLE boardbot_sessions (
  key text PRIMARY KEY,
  version bigint NOT NULL CHECK (version > 0),
  value json,
  drop_at bigint
);
CREATE INDEX boardbot_sessions_drop_at ON boardbot_sessions (drop_at) WHERE drop_at IS NOT NULL;

-- Cooldown windows: per key, the uses still in the window (`stamps`, epoch ms on the database's clock,
-- oldest first) and the id of each (`ids`, the same order), so a use taken again counts once.
-- `drop_at` is when the newest use leaves the window.
CREATE TABLE boardbot_cooldowns (
  key text PRIMARY KEY,
  stamps bigint[] NOT NULL,
  ids text[] NOT NULL,
  drop_at bigint NOT NULL
);
CREATE INDEX boardbot_cooldowns_drop_at ON boardbot_cooldowns (drop_at);

-- Resume points: one per platform (API URL) and app. `boards` maps a board id to its low-water
-- `seq`; `event_id` is NULL before the first event finished.
CREATE TABLE boardbot_positions (
  api_url text NOT NULL,
  app_id text NOT NULL,
  event_id text CHECK (event_id ~ '^[0-9]+$'),
  boards json NOT NULL,
  saved_at double precision NOT NULL,
  PRIMARY KEY (api_url, app_id)
);
