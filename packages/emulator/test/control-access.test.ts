import { EmulatorRouteError } from '@boardbot/emulator';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf, trackRoutes } from '../src/http/route-table.js';
import { ADMIN_KEY, DEV_TOKEN, Harness } from './helpers/harness.js';

// Control routes are default-deny: every route carries an access rule from its registration (one
// without is refused there), and every control route refuses a missing or a wrong admin key with
// the envelope, whatever its method, parameters or body.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(() => h.close());

const sample = (url: string) =>
  url.replace(/:\w+/g, '00000000-0000-4000-8000-000000000000').replace('*', 'anything/below');

describe('control API access', () => {
  it('refuses to register a route without an access rule', () => {
    const app = Fastify();
    trackRoutes(app);
    expect(() => app.get('/_emulator/v1/forgotten', async () => ({ open: true }))).toThrow(EmulatorRouteError);
    expect(() => app.get('/_emulator/v1/ruled', { config: { auth: 'admin' } }, async () => ({}))).not.toThrow();
  });

  it('walks every registered control route: no key, a wrong key or an app token get 401 in the envelope', async () => {
    const control = routesOf(h.emu.app).filter((r) => r.url.startsWith('/_emulator/v1'));
    expect(control.length).toBeGreaterThan(20);
    expect(control.filter((r) => r.auth !== 'admin')).toEqual([]);
    const before = JSON.stringify((await h.ctl('GET', '/state')).json);
    for (const route of control) {
      for (const authorization of [undefined, 'Bearer wrong-admin-key', `Bearer ${DEV_TOKEN}`, ADMIN_KEY]) {
        const r = await h.request(route.method, sample(route.url), {
          headers: authorization === undefined ? {} : { authorization },
          ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { body: {} } : {}),
        });
        const what = `${route.method} ${route.url} with ${authorization ?? 'no key'} → ${r.status} ${r.text.slice(0, 100)}`;
        expect(r.status, what).toBe(401);
        // A HEAD answer has the GET answer's head and no body.
        if (route.method !== 'HEAD') expect(r.json?.error?.code, what).toBe('unauthorized');
        expect(r.headers['www-authenticate'], what).toBe('Bearer');
      }
    }
    // Nothing any of them asked for happened (reset, seed, new users or boards...).
    expect(JSON.stringify((await h.ctl('GET', '/state')).json)).toBe(before);
  });

  it('answers unknown control paths behind the key too: 401 without it, 404 with it', async () => {
    expect((await h.request('GET', '/_emulator/v1/nope')).status).toBe(401);
    expect((await h.request('DELETE', '/_emulator/v1/users')).status).toBe(401);
    expect((await h.ctl('GET', '/nope')).json.error.code).toBe('not_found');
    expect((await h.ctl('DELETE', '/users')).json.error.code).toBe('method_not_allowed');
  });
});
