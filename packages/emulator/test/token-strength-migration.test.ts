import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmulator, type Emulator, type EmulatorOptions } from '@boardbot/emulator';
import { ControlClient } from '@boardbot/emulator/control';
import { type TempDir, tempDir } from '@boardbot/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/store/migrations.js';
import { type Db, sqliteDriver } from '../src/store/sqlite-driver.js';

// Finding 7 of issue 40: a database from before token strengths were recorded (fixtures/schema-4.sql,
// made by that code: dev-bot seeded with a strong token, old-bot created on loopback with `x`) is
// upgraded in place, loses nothing, and its apps count as weak beyond loopback while working on it.

const FIXTURE = readFileSync(new URL('./fixtures/schema-4.sql', import.meta.url), 'utf8');
const FIXTURE_DEV_TOKEN = 'Qm3vX8pL2rT9kW4zN7cB5hJd';
const ADMIN_KEY = 'Wq8nT3vJ6kR1xZ5mB9cL2hYp';
const APP_IDS = { devBot: '01a223c5-4180-7f27-809b-44af9f30ed5b', oldBot: '01a223c5-422f-7b21-95a9-6d39e52d487c' };
const GENERAL = '01a223c5-4180-72fd-a23c-0fc52993a6ff';

let dir: TempDir;
let db: string;
const open: Emulator[] = [];
beforeEach(() => {
  dir = tempDir('boardbot-strength-migration-');
  db = join(dir.dir, 'emulator.db');
  const old = sqliteDriver().open(db);
  old.exec(FIXTURE);
  old.close();
});
afterEach(async () => {
  for (const emu of open.splice(0)) await emu.close();
  dir.remove();
});

async function emulator(options: EmulatorOptions): Promise<Emulator> {
  const emu = await createEmulator({ db, logger: false, adminKey: ADMIN_KEY, ...options });
  open.push(emu);
  return emu;
}

async function close(emu: Emulator): Promise<void> {
  open.splice(open.indexOf(emu), 1);
  await emu.close();
}

/** Every row of every table, as the database holds them, `token_strength` left out. */
function everyRow(conn: Db): Record<string, unknown[]> {
  const tables = conn
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all();
  const rows: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    rows[name] = conn
      .prepare<[], Record<string, unknown>>(`SELECT * FROM ${name} ORDER BY 1, 2`)
      .all()
      .map(({ token_strength: _strength, ...row }) => row);
  }
  return rows;
}

describe('a database from before token strengths were recorded', () => {
  it('is upgraded in place, losing nothing, its apps of unknown strength and served on loopback', async () => {
    const old = sqliteDriver().open(db);
    const before = everyRow(old);
    old.close();
    const emu = await emulator({ seed: false });
    expect(emu.platform.store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(everyRow(emu.platform.store.db)).toEqual(before);

    const { controlUrl, apiUrl } = await emu.listen({ host: '127.0.0.1', port: 0 });
    const apps = await new ControlClient({ url: controlUrl, adminKey: ADMIN_KEY }).apps();
    expect(apps.map((a) => [a.name, a.token_strength])).toEqual([
      ['dev-bot', 'unknown'],
      ['old-bot', 'unknown'],
    ]);
    const page = await fetch(`${apiUrl}/boards/${GENERAL}/messages`, { headers: { authorization: 'Bearer x' } });
    expect(page.status).toBe(200);
    const { messages } = (await page.json()) as { messages: { content: string }[] };
    expect(messages.map((m) => m.content)).toEqual(['hello from before the upgrade']);
  });

  it('is refused beyond loopback until every app has a strong token, naming each one', async () => {
    const unseeded = await emulator({ seed: false });
    const refused = unseeded.listen({ host: '0.0.0.0', port: 0 });
    await expect(refused).rejects.toMatchObject({ code: 'BOARDBOT_EMULATOR_EXPOSED_DEFAULTS' });
    await expect(refused).rejects.toThrow(
      new RegExp(
        `app "dev-bot" \\(${APP_IDS.devBot}\\) has a token of unknown strength.*app "old-bot" \\(${APP_IDS.oldBot}\\) has a token of unknown strength.*Rotate`,
      ),
    );
    await close(unseeded);

    // A start with the seed judges dev-bot's token again; old-bot's is still unknown.
    const seeded = await emulator({ devToken: FIXTURE_DEV_TOKEN });
    const stillRefused = seeded.listen({ host: '0.0.0.0', port: 0 });
    await expect(stillRefused).rejects.toThrow(/^An emulator listening on 0\.0\.0\.0.*app "old-bot"[^;]*\. Rotate/);
    await expect(stillRefused).rejects.not.toThrow(/app "dev-bot"/);
    await close(seeded);

    // On loopback: dev-bot's strong token sent again keeps it; old-bot gets a generated one.
    const rotating = await emulator({ seed: false });
    const { controlUrl } = await rotating.listen({ host: '127.0.0.1', port: 0 });
    const control = new ControlClient({ url: controlUrl, adminKey: ADMIN_KEY });
    const kept = await control.rotateToken(APP_IDS.devBot, { token: FIXTURE_DEV_TOKEN });
    expect([kept.app.token_strength, kept.token]).toEqual(['strong', FIXTURE_DEV_TOKEN]);
    const rotated = await control.rotateToken(APP_IDS.oldBot);
    await close(rotating);

    const served = await emulator({ seed: false });
    const { apiUrl } = await served.listen({ host: '0.0.0.0', port: 0 });
    for (const [token, status] of [
      [FIXTURE_DEV_TOKEN, 200],
      [rotated.token, 200],
      ['x', 401],
    ] as const) {
      const res = await fetch(`${apiUrl}/app`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(status);
    }
  });
});
