import { createEmulator, type Emulator } from '@boardbot/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, DEV_TOKEN } from './helpers/harness.js';
import { rawExchange } from './helpers/raw-http.js';

// Finding 6 of issue 29: the playground and the control API sent no CSP, no X-Frame-Options and no
// nosniff. Every answer over a real socket carries them, refusals and event streams included.

let emu: Emulator;
let port: number;
beforeAll(async () => {
  emu = await createEmulator({ db: ':memory:', logger: false, adminKey: ADMIN_KEY });
  port = Number(new URL((await emu.listen({ host: '127.0.0.1', port: 0 })).url).port);
});
afterAll(() => emu.close());

const EXPECTED = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const headersOf = async (path: string, auth = `Bearer ${ADMIN_KEY}`) => {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: auth } });
  await r.body?.cancel();
  return { status: r.status, headers: Object.fromEntries(Object.keys(EXPECTED).map((k) => [k, r.headers.get(k)])) };
};

describe('security headers', () => {
  it.each([
    ['the playground page', '/', undefined, 200],
    ['a missing playground file', '/nothing-here.js', undefined, 404],
    ['a control API answer', '/_emulator/v1/info', undefined, 200],
    ['a control API refusal', '/_emulator/v1/info', 'Bearer wrong-key', 401],
    ['an app API answer', '/api/v1/app', `Bearer ${DEV_TOKEN}`, 200],
    ['the health check', '/healthz', undefined, 200],
  ])('are sent on %s', async (_name, path, auth, status) => {
    expect(await headersOf(path, auth)).toEqual({ status, headers: EXPECTED });
  });

  it('are sent on a URL refused before routing, a request refused for its Host, and a malformed request', async () => {
    const bad = await rawExchange(port, 'GET /_emulator/v1/%zz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(bad.status).toBe(400);
    const foreign = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n');
    expect(foreign.status).toBe(400);
    const malformed = await rawExchange(
      port,
      `GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`,
    );
    expect(malformed.status).toBe(431);
    for (const answer of [bad, foreign, malformed]) {
      for (const [name, value] of Object.entries(EXPECTED)) expect([name, answer.headers[name]]).toEqual([name, value]);
    }
  });

  it('are sent on the head of the activity stream', async () => {
    const answer = await rawExchange(
      port,
      `HEAD /_emulator/v1/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nConnection: close\r\n\r\n`,
    );
    expect([answer.status, answer.headers['content-type']]).toEqual([200, 'text/event-stream']);
    for (const [name, value] of Object.entries(EXPECTED)) expect([name, answer.headers[name]]).toEqual([name, value]);
  });
});
