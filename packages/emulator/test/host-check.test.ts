import { createEmulator, EmulatorOptionsError } from '@boardbot/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY } from './helpers/harness.js';
import { rawExchange } from './helpers/raw-http.js';

// DNS rebinding: a page on evil.example whose name resolves to 127.0.0.1 reaches a loopback server
// from the browser, with `Host: evil.example`. A loopback emulator answers only loopback names.

// Beyond loopback every app token must be strong (see auth/token-strength.ts): a random one.
const STRONG_TOKEN = 'Dh7qK2xL9pWm4RzT8vNc3bYf';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function serve(options: Parameters<typeof createEmulator>[0] = {}, host = '127.0.0.1'): Promise<number> {
  const emu = await createEmulator({ db: ':memory:', logger: false, adminKey: ADMIN_KEY, ...options });
  stops.push(() => emu.close());
  return Number(new URL((await emu.listen({ host, port: 0 })).url).port);
}

const get = (port: number, path: string, host: string | undefined) =>
  rawExchange(
    port,
    `GET ${path} HTTP/1.1\r\n${host === undefined ? '' : `Host: ${host}\r\n`}Authorization: Bearer ${ADMIN_KEY}\r\n\r\n`,
  );

describe('Host names', () => {
  it('accepts the loopback names with any port on a loopback emulator', async () => {
    const port = await serve();
    for (const host of [
      'localhost',
      `localhost:${port}`,
      '127.0.0.1:1',
      '[::1]',
      `[::1]:${port}`,
      'LOCALHOST',
      'localhost.',
    ]) {
      const r = await get(port, '/_emulator/v1/info', host);
      expect([host, r.status]).toEqual([host, 200]);
    }
  });

  it('refuses other names, and none, with 400 bad_request on every kind of route', async () => {
    const port = await serve();
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      '[::2]',
      undefined,
    ]) {
      for (const path of ['/_emulator/v1/info', '/api/v1/app', '/', '/healthz', '/nowhere']) {
        const r = await get(port, path, host);
        expect([host, path, r.status, r.json?.error?.code]).toEqual([host, path, 400, 'bad_request']);
        expect(r.headers['x-ratelimit-limit']).toBe('50');
      }
    }
    const rebound = await get(port, '/api/v1/app', 'evil.example');
    expect(rebound.json.error.message).toContain('allowedHosts');
  });

  it('judges an absolute-form target by its own authority', async () => {
    const port = await serve();
    const r = await rawExchange(port, `GET http://evil.example/healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect([r.status, r.json.error.code]).toEqual([400, 'bad_request']);
  });

  it('accepts the names of allowedHosts besides the loopback ones, and any name with *', async () => {
    const port = await serve({ allowedHosts: ['dev.example'] });
    expect((await get(port, '/healthz', 'dev.example:8080')).status).toBe(200);
    expect((await get(port, '/healthz', 'localhost')).status).toBe(200);
    expect((await get(port, '/healthz', 'other.example')).status).toBe(400);
    const anyPort = await serve({ allowedHosts: ['*'] });
    expect((await get(anyPort, '/healthz', 'other.example')).status).toBe(200);
  });

  it('accepts any name when listening beyond loopback', async () => {
    const port = await serve({ adminKey: 'a-long-enough-admin-key', devToken: STRONG_TOKEN }, '0.0.0.0');
    expect((await get(port, '/healthz', 'emulator.lan:8787')).status).toBe(200);
  });
});

describe('the admin key of an emulator beyond loopback', () => {
  it('refuses an admin key shorter than 16 characters, naming the fix, before listening', async () => {
    const emu = await createEmulator({ db: ':memory:', logger: false, adminKey: 'fifteen-chars!!' });
    stops.push(() => emu.close());
    const listening = emu.listen({ host: '0.0.0.0', port: 0 });
    await expect(listening).rejects.toBeInstanceOf(EmulatorOptionsError);
    await expect(listening).rejects.toThrow(/at least 16.*BOARDBOT_ADMIN_KEY/);
    expect(emu.app.server.listening).toBe(false);
    // On loopback the same key is fine, and 16 characters are enough beyond it.
    expect((await emu.listen({ host: '127.0.0.1', port: 0 })).url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    const long = await createEmulator({
      db: ':memory:',
      logger: false,
      adminKey: 'sixteen-chars!!!',
      devToken: STRONG_TOKEN,
    });
    stops.push(() => long.close());
    await expect(long.listen({ host: '0.0.0.0', port: 0 })).resolves.toMatchObject({ url: expect.any(String) });
  });
});
