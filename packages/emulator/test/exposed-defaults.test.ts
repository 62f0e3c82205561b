import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator, EmulatorExposedDefaultsError } from '@boardbot/emulator';
import { afterEach, describe, expect, it } from 'vitest';

// Finding 5 of issue 29: an emulator bound beyond loopback took the default token, so anyone on the
// network could act as dev-bot. These tests bind only to 0.0.0.0 and send no traffic anywhere.

const ADMIN_KEY = 'a-real-admin-key-of-32-characters';
const APP_TOKEN = 'a-real-app-token-of-32-characters';

const emulators: Emulator[] = [];
afterEach(async () => {
  for (const emu of emulators.splice(0)) await emu.close();
});

async function emulator(options: Parameters<typeof createEmulator>[0]): Promise<Emulator> {
  const emu = await createEmulator({ db: ':memory:', logger: false, ...options });
  emulators.push(emu);
  return emu;
}

describe('an emulator listening beyond loopback', () => {
  it('refuses the default dev-bot token, saying how to set a real one, before binding', async () => {
    const emu = await emulator({ adminKey: ADMIN_KEY });
    const listening = emu.listen({ host: '0.0.0.0', port: 0 });
    await expect(listening).rejects.toBeInstanceOf(EmulatorExposedDefaultsError);
    await expect(listening).rejects.toMatchObject({ code: 'BOARDBOT_EMULATOR_EXPOSED_DEFAULTS' });
    await expect(listening).rejects.toThrow(/"dev-token".*BOARDBOT_TOKEN.*BOARDBOT_ADMIN_KEY.*\.env/);
    expect(emu.app.server.listening).toBe(false);
  });

  it('refuses a short dev-bot token', async () => {
    const emu = await emulator({ adminKey: ADMIN_KEY, devToken: 'short-token' });
    const listening = emu.listen({ host: '0.0.0.0', port: 0 });
    await expect(listening).rejects.toMatchObject({ code: 'BOARDBOT_EMULATOR_EXPOSED_DEFAULTS' });
    await expect(listening).rejects.toThrow(/11 characters.*at least 16/);
  });

  it('refuses a database whose dev-bot still holds the default token, even started without the seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'boardbot-exposed-'));
    try {
      const db = join(dir, 'emulator.db');
      await (await createEmulator({ db, logger: false })).close();
      const emu = await emulator({ db, seed: false, adminKey: ADMIN_KEY, devToken: APP_TOKEN });
      await expect(emu.listen({ host: '0.0.0.0', port: 0 })).rejects.toMatchObject({
        code: 'BOARDBOT_EMULATOR_EXPOSED_DEFAULTS',
      });
      // Seeding with a real token replaces the default one: then it starts.
      await emu.close();
      emulators.pop();
      const seeded = await emulator({ db, adminKey: ADMIN_KEY, devToken: APP_TOKEN });
      await expect(seeded.listen({ host: '0.0.0.0', port: 0 })).resolves.toMatchObject({ url: expect.any(String) });
    } finally {
      await Promise.all(emulators.splice(0).map((emu) => emu.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts with a real token and a real admin key, and with a generated admin key', async () => {
    const real = await emulator({ adminKey: ADMIN_KEY, devToken: APP_TOKEN });
    await expect(real.listen({ host: '0.0.0.0', port: 0 })).resolves.toMatchObject({ url: expect.any(String) });
    expect(real.app.server.listening).toBe(true);
    const generated = await emulator({ devToken: APP_TOKEN });
    await expect(generated.listen({ host: '0.0.0.0', port: 0 })).resolves.toMatchObject({ url: expect.any(String) });
  });

  it('still takes the default token on loopback', async () => {
    const emu = await emulator({});
    await expect(emu.listen({ host: '127.0.0.1', port: 0 })).resolves.toMatchObject({ url: expect.any(String) });
    expect(emu.devToken).toBe('dev-token');
  });
});
