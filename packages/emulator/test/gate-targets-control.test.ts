import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteEntry, routesOf } from '../src/http/route-table.js';
import { ADMIN_KEY, Harness } from './helpers/harness.js';
import type { RawAnswer } from './helpers/raw-http.js';
import {
  bodyFor,
  exchange,
  FOREIGN_HOST_FORM,
  fillPath,
  isEnvelope,
  REACHING_FORMS,
  targetForms,
} from './helpers/targets.js';

// The control API's gate (the admin key) and the public routes' (the Host check) are decided from
// the matched route too: no spelling of a control target gets past the key, and /healthz answers
// (or refuses with the envelope) whatever the spelling. See gate-targets.test.ts for the app API.

let h: Harness;
let port: number;
beforeAll(async () => {
  h = await Harness.start();
  port = Number(new URL((await h.emu.listen({ port: 0 })).url).port);
});
afterAll(() => h.close());

const routes = (keep: (r: RouteEntry) => boolean) => routesOf(h.emu.app).filter((r) => !r.url.includes('*') && keep(r));
const reaching = (form: string) => (REACHING_FORMS as readonly string[]).includes(form);

/** Sends `route` in every target form, and hands each answer to `check`. */
async function walk(
  list: RouteEntry[],
  bearer: string | undefined,
  check: (route: RouteEntry, form: string, r: RawAnswer, what: string) => void,
): Promise<void> {
  for (const route of list) {
    for (const [form, target] of targetForms(fillPath(route.url, { boardId: h.seed.general.id }), port)) {
      const body = bodyFor(route);
      const r = await exchange({
        method: route.method,
        target,
        port,
        ...(bearer ? { bearer } : {}),
        ...(body ? { body } : {}),
      });
      const what = `${route.method} ${route.url} as ${form} → ${r.status} ${r.body.slice(0, 120)}`;
      expect(r.status, what).toBeLessThan(500);
      // Neither API is rate limited, but every refusal carries the three headers.
      if (r.status >= 400) expect(r.headers['x-ratelimit-limit'], what).toBe('50');
      if (form === FOREIGN_HOST_FORM) expect(r.status, what).toBe(400);
      check(route, form, r, what);
    }
  }
}

describe('the control API’s gate follows the matched route, whatever the request target looks like', () => {
  it('refuses every control route, 405s and HEAD included, in every target form when the admin key is missing', async () => {
    const list = routes((r) => r.auth === 'admin');
    expect(list.length).toBeGreaterThan(100);
    const before = JSON.stringify((await h.ctl('GET', '/state')).json);
    await walk(list, undefined, (route, form, r, what) => {
      expect(r.status, `${what}: served without the admin key`).toBeGreaterThanOrEqual(400);
      expect(isEnvelope(route.method, r), what).toBe(true);
      if (reaching(form)) {
        expect(r.status, what).toBe(401);
        expect(r.headers['www-authenticate'], what).toBe('Bearer');
      }
    });
    // Nothing any of them asked for happened (reset, seed, new users or boards...).
    expect(JSON.stringify((await h.ctl('GET', '/state')).json)).toBe(before);
  });

  it('serves the control API’s reads with the admin key in the forms that reach them, and refuses the rest with the envelope', async () => {
    // `/_emulator/v1` itself is the control API's catch-all, a 404 with the key.
    const reads = routes(
      (r) => r.auth === 'admin' && r.url !== '/_emulator/v1' && (r.method === 'GET' || r.method === 'HEAD'),
    );
    await walk(reads, ADMIN_KEY, (route, form, r, what) => {
      expect(r.status, `${what}: the admin key was refused`).not.toBe(401);
      if (r.status >= 400) expect(isEnvelope(route.method, r), what).toBe(true);
      // A route reached answers itself: a success, its own refusal (an unknown id) or a 405, never
      // "no route" (404 not_found).
      if (reaching(form) && route.method === 'GET') {
        expect(r.json?.error?.code, what).not.toBe('not_found');
      }
    });
  });
});

describe('/healthz, whatever the request target looks like', () => {
  it('answers GET and HEAD with 200 and other methods with 405 in the forms that reach it, and the envelope otherwise', async () => {
    const list = routes((r) => r.url === '/healthz');
    expect(list.map((r) => r.method).sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT']);
    await walk(list, undefined, (route, form, r, what) => {
      const read = route.method === 'GET' || route.method === 'HEAD';
      if (reaching(form)) {
        expect(r.status, what).toBe(read ? 200 : 405);
        if (route.method === 'GET') expect(r.json, what).toEqual({ ok: true });
        if (!read) expect([r.headers.allow, r.json.error.code], what).toEqual(['GET', 'method_not_allowed']);
      } else if (r.status >= 300) {
        expect(isEnvelope(route.method, r), what).toBe(true);
      } else {
        expect(read, `${what}: a ${route.method} was served`).toBe(true);
      }
    });
  });
});
