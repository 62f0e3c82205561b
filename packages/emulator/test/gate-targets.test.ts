import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteEntry, routesOf } from '../src/http/route-table.js';
import { DEV_TOKEN, FakeClock, Harness } from './helpers/harness.js';
import { expectKeyHeldInEveryForm, sendInEveryForm } from './helpers/keyed-request-forms.js';
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

// The gate (credential, rate limit, Idempotency-Key, headers) is decided from the route that
// matched, so every spelling of a target that the router accepts gets it, and every spelling it
// does not accept is refused with the envelope. Regression: the gate used to read the URL again
// and skipped absolute-form and percent-encoded targets (a valid token refused as missing, an
// interaction answer outside its rate limit and its Idempotency-Key).

const LIMIT = 100_000;
let h: Harness;
let port: number;
let messageId: string;

// Which bucket counted an answer is read from its headers. The clock stands still once the app's
// bucket (started at 0 ms) and the caller's address's bucket (at 50 ms) exist, so each window's
// reset names its bucket: the app's shows 0.900 s, the address's 0.950 s, and a bucket made later (a
// new interaction token) or no bucket at all (a route that is not rate limited) shows 1.000 s.
type Counted = 'app' | 'address' | 'token' | 'nothing';
const remaining = { app: 0, address: 0 };

beforeAll(async () => {
  const clock = new FakeClock();
  h = await Harness.start({ now: clock.now, rateLimit: { requests: LIMIT } });
  port = Number(new URL((await h.emu.listen({ port: 0 })).url).port);
  await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
  messageId = (await h.send(h.seed.general.id, { content: 'mine' })).id;
  remaining.app = Number((await h.api('GET', '/app')).headers['x-ratelimit-remaining']);
  clock.advance(50);
  remaining.address = Number((await h.api('GET', '/app', null)).headers['x-ratelimit-remaining']);
  clock.advance(50);
});
afterAll(() => h.close());

/** The bucket an answer was counted in (and moves the trackers), or undefined when none fits. */
function countedOf(r: RawAnswer): Counted | undefined {
  const left = Number(r.headers['x-ratelimit-remaining']);
  const reset = r.headers['x-ratelimit-reset'];
  if (reset === '0.900' && left === remaining.app - 1) {
    remaining.app = left;
    return 'app';
  }
  if (reset === '0.950' && left === remaining.address - 1) {
    remaining.address = left;
    return 'address';
  }
  if (reset === '1.000' && left === LIMIT - 1) return 'token';
  if (reset === '1.000' && left === LIMIT) return 'nothing';
  return undefined;
}

const routes = (keep: (r: RouteEntry) => boolean) => routesOf(h.emu.app).filter((r) => !r.url.includes('*') && keep(r));

/** The path of `route`, with a fresh interaction token when it takes one. */
async function pathOf(route: RouteEntry): Promise<string> {
  const token = route.url.includes(':token')
    ? (await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'ping' })).token
    : '';
  return fillPath(route.url, {
    boardId: h.seed.general.id,
    messageId,
    userId: h.seed.alice.id,
    token,
  });
}

/** Sends `route` in every target form with the app token, and hands each answer to `check`. */
async function walk(
  list: RouteEntry[],
  check: (route: RouteEntry, form: string, r: RawAnswer, counted: Counted | undefined, what: string) => void,
): Promise<void> {
  for (const route of list) {
    const forms = targetForms('/', port).length;
    for (let i = 0; i < forms; i++) {
      // An interaction answer uses up its token: each form gets its own.
      const [form, target] = targetForms(await pathOf(route), port)[i] as [string, string];
      const body = bodyFor(route);
      const r = await exchange({ method: route.method, target, port, bearer: DEV_TOKEN, ...(body ? { body } : {}) });
      const what = `${route.method} ${route.url} as ${form} → ${r.status} ${r.body.slice(0, 120)}`;
      expect(r.status, what).toBeLessThan(500);
      expect(r.headers['x-ratelimit-limit'], what).toBe(String(LIMIT));
      if (form === FOREIGN_HOST_FORM) {
        expect(r.status, what).toBe(400);
        if (route.method !== 'HEAD') expect(r.json.error.code, what).toBe('bad_request');
      }
      check(route, form, r, countedOf(r), what);
    }
  }
}

describe('the gate follows the matched route, whatever the request target looks like', () => {
  it('walks every app API route, HEAD included, in every target form: the gate runs, or the envelope refuses', async () => {
    const list = routes((r) => r.auth === 'app' || r.auth === 'interaction');
    expect(list.filter((r) => r.method !== 'HEAD')).toHaveLength(13);
    expect(list.filter((r) => r.method === 'HEAD').length).toBeGreaterThanOrEqual(7);
    let reached = 0;
    await walk(list, (route, form, r, counted, what) => {
      expect(r.status, `${what}: a valid credential was refused`).not.toBe(401);
      expect(counted, `${what}: counted in no bucket`).toBeDefined();
      if (r.status < 300) {
        reached++;
        expect(counted, `${what}: the route answered, the gate did not count it`).toBe(
          route.auth === 'app' ? 'app' : 'token',
        );
      } else {
        expect(isEnvelope(route.method, r), what).toBe(true);
      }
      if ((REACHING_FORMS as readonly string[]).includes(form)) expect(r.status, what).toBeLessThan(300);
    });
    expect(reached).toBeGreaterThanOrEqual(list.length * REACHING_FORMS.length);
  });

  it('walks every known app API path with a method it does not have: 405 through the gate, or the envelope', async () => {
    const list = routes((r) => r.auth === 'optional' && r.url !== '/api/v1');
    expect(list.length).toBeGreaterThan(30);
    await walk(list, (route, form, r, counted, what) => {
      expect(r.status, what).toBeGreaterThanOrEqual(400);
      expect(r.status, `${what}: a valid credential was refused`).not.toBe(401);
      expect(isEnvelope(route.method, r), what).toBe(true);
      if (r.status === 405) {
        expect(counted, `${what}: a 405 the gate did not count`).toBe('app');
        expect(r.headers.allow, what).toMatch(/^(GET|POST|PUT|PATCH|DELETE)(, [A-Z]+)*$/);
        if (route.method !== 'HEAD') expect(r.json.error.code, what).toBe('method_not_allowed');
      } else {
        expect(['app', 'address', 'nothing'], what).toContain(counted);
      }
      if ((REACHING_FORMS as readonly string[]).includes(form)) expect(r.status, what).toBe(405);
    });
  });
});

describe('Idempotency-Key, whatever the request target looks like', () => {
  const eventCount = () => h.emu.platform.store.events.after(h.seed.devBot.id, 0, 1_000_000).length;

  it('replays a send for the same key and body in every form that reaches it, and refuses another body with 422', async () => {
    const path = `/api/v1/boards/${h.seed.random.id}/messages`;
    await expectKeyHeldInEveryForm(
      {
        method: 'POST',
        path,
        port,
        bearer: DEV_TOKEN,
        idempotencyKey: 'send-1',
        body: JSON.stringify({ content: 'sent once' }),
        otherBody: JSON.stringify({ content: 'another' }),
      },
      eventCount,
    );
    expect((await h.messages(h.seed.random.id)).map((m) => m.content)).toEqual(['sent once']);
  });

  it('replays an edit for the same key and body in every form that reaches it, and refuses another body with 422', async () => {
    const message = await h.send(h.seed.random.id, { content: 'draft' });
    const path = `/api/v1/boards/${h.seed.random.id}/messages/${message.id}`;
    await expectKeyHeldInEveryForm(
      {
        method: 'PATCH',
        path,
        port,
        bearer: DEV_TOKEN,
        idempotencyKey: 'edit-1',
        body: JSON.stringify({ content: 'edited once' }),
        otherBody: JSON.stringify({ content: 'edited twice' }),
      },
      eventCount,
    );
    const edits = h.emu.platform.store.events
      .after(h.seed.devBot.id, 0, 1_000_000)
      .filter((e) => e.name === 'message.edit' && JSON.parse(e.data).message.id === message.id);
    expect(edits).toHaveLength(1);
    expect((await h.messages(h.seed.random.id)).find((m) => m.id === message.id)?.content).toBe('edited once');
  });

  it('holds the Idempotency-Key of an interaction answer in every form that reaches it', async () => {
    const { id, token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'ping' });
    const answers = await sendInEveryForm({
      method: 'POST',
      path: `/api/v1/interactions/${token}`,
      port,
      body: JSON.stringify({ content: 'answered once' }),
      idempotencyKey: 'same-key',
    });
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect((await h.ctl('GET', `/interactions/${id}`)).json.answers).toHaveLength(1);
  });
});

describe('the rate limit, whatever the request target looks like', () => {
  it('counts interaction answers sent in absolute-form against the token’s rate limit', async () => {
    const limited = await Harness.start({ now: new FakeClock().now, rateLimit: { requests: 2 } });
    try {
      const limitedPort = Number(new URL((await limited.emu.listen({ port: 0 })).url).port);
      await limited.registerCommands([{ name: 'ping', description: 'Ping' }]);
      const { token } = await limited.invoke({
        board_id: limited.seed.general.id,
        user_id: limited.seed.alice.id,
        command: 'ping',
      });
      const target = `http://127.0.0.1:${limitedPort}/api/v1/interactions/${token}`;
      const body = JSON.stringify({ content: 'again' });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await exchange({ method: 'POST', target, port: limitedPort, body })).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
