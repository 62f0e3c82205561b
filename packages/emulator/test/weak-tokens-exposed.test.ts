import { join } from 'node:path';
import { createEmulator, type Emulator, type EmulatorOptions } from '@boardbot/emulator';
import { ControlClient } from '@boardbot/emulator/control';
import { recordingLogger, type TempDir, tempDir } from '@boardbot/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refusal } from './helpers/control-failure.js';

// Finding 7 of issue 40: an app created through the control API on loopback with the token `x`,
// then served on 0.0.0.0 from the same database, answered anyone with `Bearer x` (the database keeps
// only the token's hash, so its strength could not be judged later). These tests bind to 0.0.0.0
// and send requests only to 127.0.0.1.

const ADMIN_KEY = 'Wq8nT3vJ6kR1xZ5mB9cL2hYp';
const DEV_TOKEN = 'Fs4gN7dQ2wK9tV5xM8bH3jRc';

let dir: TempDir;
const open: Emulator[] = [];
beforeEach(() => {
  dir = tempDir('boardbot-weak-tokens-');
});
afterEach(async () => {
  for (const emu of open.splice(0)) await emu.close();
  dir.remove();
});

/** An emulator on the test's database file, closed after the test. */
async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const emu = await createEmulator({
    db: join(dir.dir, 'emulator.db'),
    logger: false,
    adminKey: ADMIN_KEY,
    devToken: DEV_TOKEN,
    ...options,
  });
  open.push(emu);
  return emu;
}

/** Closes an emulator before the test ends, so the next one can hold the same database. */
async function close(emu: Emulator): Promise<void> {
  open.splice(open.indexOf(emu), 1);
  await emu.close();
}

const control = (emu: Emulator) => new ControlClient({ url: emu.urls?.controlUrl as string, adminKey: emu.adminKey });

/** The status of `GET /app` with `token`, sent to the emulator's loopback address. */
async function appStatus(emu: Emulator, token: string): Promise<number> {
  const res = await fetch(`${emu.urls?.apiUrl}/app`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

describe('an app token chosen weak', () => {
  it('is refused beyond loopback, with how to rotate it; after a rotation the app is served there', async () => {
    const loopback = await emulator();
    await loopback.listen({ host: '127.0.0.1', port: 0 });
    const { app } = await control(loopback).createApp({ name: 'weak-bot', token: 'x' });
    expect(app.token_strength).toBe('weak');
    expect(await appStatus(loopback, 'x')).toBe(200);
    await close(loopback);

    const exposed = await emulator();
    const listening = exposed.listen({ host: '0.0.0.0', port: 0 });
    await expect(listening).rejects.toMatchObject({ code: 'BOARDBOT_EMULATOR_EXPOSED_DEFAULTS' });
    await expect(listening).rejects.toThrow(
      new RegExp(`app "weak-bot" \\(${app.id}\\) has a weak token.*Rotate.*POST /_emulator/v1/apps/<app id>/token`),
    );
    expect(exposed.app.server.listening).toBe(false);
    await close(exposed);

    const rotating = await emulator();
    await rotating.listen({ host: '127.0.0.1', port: 0 });
    const rotated = await control(rotating).rotateToken(app.id);
    expect(rotated.app.token_strength).toBe('strong');
    await close(rotating);

    const served = await emulator();
    await served.listen({ host: '0.0.0.0', port: 0 });
    expect(await appStatus(served, rotated.token)).toBe(200);
    expect(await appStatus(served, 'x')).toBe(401);
  });

  it('is refused when chosen while the emulator listens beyond loopback; generated and strong ones are taken', async () => {
    const logger = recordingLogger();
    const emu = await emulator({ logger });
    await emu.listen({ host: '0.0.0.0', port: 0 });
    const ctl = control(emu);
    const weak = 'hunter2hunter2hunter2hunter2';

    const created = await refusal(ctl.createApp({ name: 'weak-bot', token: weak }));
    expect(created.status).toBe(400);
    expect(created.details).toEqual([
      { path: '/token', message: expect.stringMatching(/beyond loopback.*must be strong.*leave token out/) },
    ]);
    const { app, token: generated } = await ctl.createApp({ name: 'generated-bot' });
    expect(app.token_strength).toBe('strong');
    const rotatedWeak = await refusal(ctl.rotateToken(app.id, { token: 'x'.repeat(32) }));
    expect(rotatedWeak.details[0]?.path).toBe('/token');
    // A refused rotation changed nothing: the generated token still works.
    expect(await appStatus(emu, generated)).toBe(200);
    const strong = 'Zr5tP8yC1nG4kW7qS2mX9vBd';
    const rotated = await ctl.rotateToken(app.id, { token: strong });
    expect(rotated.app.token_strength).toBe('strong');
    expect(await appStatus(emu, strong)).toBe(200);
    expect(await appStatus(emu, generated)).toBe(401);

    // Neither a refusal nor a log line holds a token.
    expect(`${created.message} ${JSON.stringify(created.details)}`).not.toContain('hunter2');
    expect(JSON.stringify(await ctl.apps())).not.toMatch(/hunter2|Zr5tP8y|x{32}/);
    const logs = logger.text();
    for (const secret of ['hunter2', 'x'.repeat(32), generated, strong, DEV_TOKEN]) expect(logs).not.toContain(secret);
  });

  it('is refused as the dev-bot token of a seed loaded while listening beyond loopback', async () => {
    const emu = await emulator({ seed: false, devToken: 'short-token' });
    await emu.listen({ host: '0.0.0.0', port: 0 });
    const seeded = await refusal(control(emu).seed());
    expect([seeded.status, seeded.details[0]?.path]).toEqual([400, '/token']);
    expect((await control(emu).apps()).map((a) => a.name)).toEqual([]);
  });

  it('ends the gateway streams opened with the old token when it is rotated', async () => {
    const emu = await emulator();
    await emu.listen({ host: '127.0.0.1', port: 0 });
    const ctl = control(emu);
    const { app, token } = await ctl.createApp({ name: 'streaming-bot' });
    const stream = await fetch(`${emu.urls?.apiUrl}/gateway`, { headers: { authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(200);
    const ended = stream.body?.pipeTo(new WritableStream());
    await ctl.rotateToken(app.id);
    await expect(ended).resolves.toBeUndefined();
    expect(await appStatus(emu, token)).toBe(401);
  });
});
