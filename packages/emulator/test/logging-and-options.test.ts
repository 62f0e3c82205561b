import { createEmulator, DEFAULT_DEV_TOKEN, EmulatorOptionsError } from '@boardbot/emulator';
import { recordingLogger } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { ADMIN_KEY, Harness } from './helpers/harness.js';

describe('logging', () => {
  it('logs requests without app tokens, interaction tokens or the admin key', async () => {
    const logger = recordingLogger();
    const h = await Harness.start({ logger, devToken: 'secret-dev-token' });
    try {
      await h.api('GET', '/app', 'secret-dev-token');
      await h.api('GET', '/app', 'wrong-secret-token');
      await h.registerCommands([{ name: 'ping', description: 'Ping' }], 'secret-dev-token');
      const { token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'ping' });
      await h.api('POST', `/interactions/${token}`, null, { body: { content: 'pong' } });
      await h.request('GET', `/_emulator/v1/state?key=${ADMIN_KEY}`);
      await h.request('GET', '/_emulator/v1/state?key=wrong-admin-key');
      const logs = logger.text();
      expect(logs).toContain('/interactions/[token]');
      expect(logs).toContain('key=[redacted]');
      for (const secret of ['secret-dev-token', 'wrong-secret-token', token, ADMIN_KEY, 'wrong-admin-key']) {
        expect(logs).not.toContain(secret);
      }
    } finally {
      await h.close();
    }
  });
});

describe('options', () => {
  it('documents the default dev token as a constant that works with no configuration', async () => {
    expect(DEFAULT_DEV_TOKEN).toBe('dev-token');
    const emu = await createEmulator({ db: ':memory:', logger: false });
    try {
      const r = await emu.app.inject({
        method: 'GET',
        url: '/api/v1/app',
        headers: { authorization: 'Bearer dev-token' },
      });
      expect(r.json()).toMatchObject({ name: 'dev-bot' });
      expect(emu.adminKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
    } finally {
      await emu.close();
    }
  });

  it('starts empty with seed: false', async () => {
    const emu = await createEmulator({ db: ':memory:', logger: false, seed: false });
    try {
      const r = await emu.app.inject({
        method: 'GET',
        url: '/api/v1/app',
        headers: { authorization: 'Bearer dev-token' },
      });
      expect(r.statusCode).toBe(401);
    } finally {
      await emu.close();
    }
  });

  it('refuses options it cannot run with, naming the option', async () => {
    await expect(createEmulator({ db: ':memory:', logger: false, rateLimit: { requests: 0 } })).rejects.toThrow(
      EmulatorOptionsError,
    );
    await expect(createEmulator({ db: ':memory:', logger: false, limits: { gatewayStreams: -1 } })).rejects.toThrow(
      /limits\.gatewayStreams/,
    );
    await expect(createEmulator({ db: ':memory:', logger: false, limits: { retainedEventsMs: -1 } })).rejects.toThrow(
      'Option limits.retainedEventsMs must be a number of 0 or more, got -1',
    );
    await expect(createEmulator({ db: ':memory:', logger: false, adminKey: '' })).rejects.toMatchObject({
      code: 'BOARDBOT_EMULATOR_OPTIONS',
    });
  });

  it('refuses to listen twice or after close', async () => {
    const emu = await createEmulator({ db: ':memory:', logger: false });
    await emu.listen({ port: 0 });
    await expect(emu.listen({ port: 0 })).rejects.toMatchObject({ code: 'BOARDBOT_EMULATOR_STATE' });
    await emu.close();
    await emu.close();
    await expect(emu.listen({ port: 0 })).rejects.toMatchObject({ code: 'BOARDBOT_EMULATOR_STATE' });
  });
});
