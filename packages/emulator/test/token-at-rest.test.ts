import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator } from '@boardbot/emulator';
import { SseClient } from '@boardbot/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/store.js';
import { ADMIN_KEY, DEV_TOKEN } from './helpers/harness.js';

// Regression: interaction tokens were kept in clear in the event log (so that a resumed stream could
// carry them). Now each token derives from its interaction's id under the database's own secret, the
// log keeps the event without it, and a replay puts it back, the same bytes as sent live.

const dir = mkdtempSync(join(tmpdir(), 'boardbot-tokens-'));
const db = join(dir, 'emulator.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(): Promise<{ emu: Emulator; apiUrl: string; controlUrl: string }> {
  const emu = await createEmulator({ db, logger: false, adminKey: ADMIN_KEY });
  const { apiUrl, controlUrl } = await emu.listen({ port: 0 });
  return { emu, apiUrl, controlUrl };
}

const json = { 'content-type': 'application/json' };
const admin = { authorization: `Bearer ${ADMIN_KEY}`, ...json };

/** Every byte of the database's files (the database, its WAL and shared memory if any). */
function databaseBytes(): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('\n');
}

describe('interaction tokens at rest', () => {
  it('stores no token, and a stream resumed on a restarted emulator still carries a working one', async () => {
    let { emu, apiUrl, controlUrl } = await start();
    const put = await fetch(`${apiUrl}/app/commands`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${DEV_TOKEN}`, ...json },
      body: JSON.stringify([{ name: 'ping', description: 'Ping' }]),
    });
    expect(put.status).toBe(200);
    const state = (await (await fetch(`${controlUrl}/state`, { headers: admin })).json()) as {
      users: { id: string; username: string }[];
      boards: { id: string; name: string }[];
    };
    const live = await SseClient.open(`${apiUrl}/gateway`, DEV_TOKEN);
    const ready = await live.nextEvent();
    const invoked = await fetch(`${controlUrl}/interactions`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        board_id: state.boards.find((b) => b.name === 'general')?.id,
        user_id: state.users.find((u) => u.username === 'alice')?.id,
        command: 'ping',
      }),
    });
    expect(invoked.status).toBe(201);
    const sent = await live.nextEvent();
    live.destroy();
    const token = JSON.parse(sent.data).interaction.token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await emu.close();

    expect(databaseBytes()).not.toContain(token);

    ({ emu, apiUrl } = await start());
    try {
      const resumed = await SseClient.open(`${apiUrl}/gateway`, DEV_TOKEN, { 'last-event-id': ready.id });
      expect(JSON.parse((await resumed.nextEvent()).data).resumed).toBe(true);
      const replayed = await resumed.nextEvent();
      resumed.destroy();
      expect([replayed.id, replayed.data]).toEqual([sent.id, sent.data]);
      const answer = await fetch(`${apiUrl}/interactions/${token}`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ content: 'pong' }),
      });
      expect(answer.status).toBe(200);
    } finally {
      await emu.close();
    }
    expect(databaseBytes()).not.toContain(token);
  });

  it('removes the tokens an older emulator left in the log when it opens its database', () => {
    const old = join(dir, 'old.db');
    // A database as emulators before the token secret left it: schema 2, a token in the log.
    const previous = openStore(old);
    previous.db.exec(
      'ALTER TABLE apps DROP COLUMN token_strength; DROP TABLE secrets; DROP INDEX interactions_unanswered_by_expiry; PRAGMA user_version = 2',
    );
    const data = JSON.stringify({
      type: 'interaction.create',
      interaction: { id: 'i-1', token: 'clear-token-of-old' },
    });
    previous.db
      .prepare('INSERT INTO events (app_id, id, name, data, created_at_ms) VALUES (?, ?, ?, ?, ?)')
      .run('a', 1, 'interaction.create', data, 0);
    previous.close();
    const store = openStore(old);
    try {
      expect(store.events.after('a', 0, 10).map((e) => JSON.parse(e.data))).toEqual([
        { type: 'interaction.create', interaction: { id: 'i-1' } },
      ]);
    } finally {
      store.close();
    }
  });
});
