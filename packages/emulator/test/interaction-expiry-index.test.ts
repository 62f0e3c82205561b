import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXPIRED_BETWEEN_SQL } from '../src/store/interactions.js';
import { MIGRATIONS } from '../src/store/migrations.js';
import { openStore, type Store } from '../src/store/store.js';

// Regression: the expiry watcher's query had no index on `expires_at_ms`, so every tick scanned every
// interaction ever made. Migration 4 adds a partial index; these tests pin that the query uses it, on
// a new database and on one an older emulator left.

const dir = mkdtempSync(join(tmpdir(), 'boardbot-expiry-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function planOf(store: Store): string {
  const rows = store.db.prepare(`EXPLAIN QUERY PLAN ${EXPIRED_BETWEEN_SQL}`).all(0, 1) as { detail: string }[];
  return rows.map((r) => r.detail).join('\n');
}

describe('the expired-interactions query', () => {
  it('is a range scan of the partial index on expires_at_ms', () => {
    const store = openStore(':memory:');
    try {
      expect(planOf(store)).toMatch(
        /USING INDEX interactions_unanswered_by_expiry \(expires_at_ms>\? AND expires_at_ms<\?\)/,
      );
    } finally {
      store.close();
    }
  });

  it('gets the index when an older emulator created the database (schema 3)', () => {
    const path = join(dir, 'schema-3.db');
    const previous = openStore(path);
    previous.db.exec(
      'ALTER TABLE apps DROP COLUMN token_strength; DROP INDEX interactions_unanswered_by_expiry; PRAGMA user_version = 3',
    );
    expect(planOf(previous)).not.toContain('interactions_unanswered_by_expiry');
    previous.close();
    const store = openStore(path);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      expect(planOf(store)).toContain('USING INDEX interactions_unanswered_by_expiry');
    } finally {
      store.close();
    }
  });
});
