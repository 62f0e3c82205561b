import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../src/http/route-table.js';
import { DEV_TOKEN, FakeClock, Harness } from './helpers/harness.js';
import { nextAnswer, open, type RawAnswer } from './helpers/raw-http.js';

// The gate (credential, rate limit, Idempotency-Key, headers) is decided from the route that
// matched, so every spelling of a target that the router accepts gets it, and every spelling it
// does not accept is refused with the envelope. Regression: the gate used to read the URL again
// and skipped absolute-form and percent-encoded targets (a valid token refused as missing, an
// interaction answer outside its rate limit and its Idempotency-Key).

const LIMIT = 100_000;
let h: Harness;
let port: number;
let messageId: string;

beforeAll(async () => {
  h = await Harness.start({ now: new FakeClock().now, rateLimit: { requests: LIMIT } });
  port = Number(new URL((await h.emu.listen({ port: 0 })).url).port);
  await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
  messageId = (await h.send(h.seed.general.id, { content: 'mine' })).id;
});
afterAll(() => h.close());

/** Every spelling of `path` that a client can put on the request line. */
function targetForms(path: string): [string, string][] {
  const encodeLetters = (p: string) => p.replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  const last = path.lastIndexOf('/');
  return [
    ['canonical', path],
    ['absolute-form', `http://127.0.0.1:${port}${path}`],
    ['absolute-form, upper-case scheme', `HTTP://localhost:${port}${path}`],
    ['absolute-form naming another host', `http://rebound.example${path}`],
    ['percent-encoded letters', encodeLetters(path)],
    ['percent-encoded slashes', path.replaceAll('/', '%2F')],
    ['leading //', `/${path}`],
    ['// inside', `${path.slice(0, last)}//${path.slice(last + 1)}`],
    ['. segment', `${path.slice(0, last)}/.${path.slice(last)}`],
    ['.. segment', `${path.slice(0, last)}/x/..${path.slice(last)}`],
    ['encoded .. segment', `${path.slice(0, last)}/x/%2e%2e${path.slice(last)}`],
    ['trailing slash', `${path}/`],
    ['upper case', path.toUpperCase()],
    ['mixed case', path.replace('api', 'Api')],
    ['semicolon parameter', `${path};x=1`],
    ['fragment', `${path}#x`],
    ['backslashes', path.replaceAll('/', '\\')],
    ['empty query', `${path}?`],
  ];
}

interface Route {
  method: string;
  url: string;
  auth: string;
}

function requestText(route: Route, target: string, token: string): string {
  const body =
    route.method === 'PUT'
      ? JSON.stringify([{ name: 'ping', description: 'Ping' }])
      : route.method === 'POST' || route.method === 'PATCH'
        ? JSON.stringify({ content: 'hello' })
        : undefined;
  const lines = [
    `${route.method} ${target} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Authorization: Bearer ${DEV_TOKEN}`,
    'Connection: close',
    ...(body === undefined
      ? []
      : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, `Idempotency-Key: ${token}`]),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

async function exchange(text: string): Promise<RawAnswer> {
  const socket = await open(port);
  const answer = nextAnswer(socket);
  socket.write(text);
  try {
    return await answer;
  } finally {
    socket.destroy();
  }
}

describe('the gate follows the matched route, whatever the request target looks like', () => {
  it('walks every app API route and every target form: the gate runs, or the envelope refuses', async () => {
    const routes = routesOf(h.emu.app).filter(
      (r) => (r.auth === 'app' || r.auth === 'interaction') && r.method !== 'HEAD' && !r.url.includes('*'),
    );
    expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toHaveLength(13);
    // The app's bucket only moves when the gate counts a request, one by one (the clock stands still).
    let appRemaining = Number((await h.api('GET', '/app')).headers['x-ratelimit-remaining']);
    let reached = 0;
    const forms = targetForms('/').length;
    for (const route of routes) {
      for (let i = 0; i < forms; i++) {
        const { token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'ping' });
        const path = route.url
          .replace(':boardId', h.seed.general.id)
          .replace(':messageId', messageId)
          .replace(':userId', h.seed.alice.id)
          .replace(':token', token);
        const [form, target] = targetForms(path)[i] as [string, string];
        const r = await exchange(requestText(route, target, token));
        const what = `${route.method} ${route.url} as ${form} → ${r.status} ${r.body.slice(0, 120)}`;
        expect(r.headers['x-ratelimit-limit'], what).toBe(String(LIMIT));
        expect(r.status, what).toBeLessThan(500);
        expect(r.status, `${what}: a valid credential was refused`).not.toBe(401);
        const remaining = Number(r.headers['x-ratelimit-remaining']);
        // Counted against the app's token (a Bearer header is counted wherever the gate runs), or
        // against the interaction token of the path, or not at all (refused before the gate).
        const onApp = remaining === appRemaining - 1;
        if (onApp) appRemaining = remaining;
        const onToken = route.auth === 'interaction' && remaining === LIMIT - 1;
        expect(onApp || onToken || remaining === LIMIT, `${what}: remaining ${remaining}`).toBe(true);
        if (r.status < 300) {
          reached++;
          expect(route.auth === 'app' ? onApp : onToken, `${what}: the route answered, the gate did not count it`).toBe(
            true,
          );
        } else {
          expect(r.json?.error, what).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        }
      }
    }
    // Canonical, absolute-form, percent-encoded letters, fragment and empty query reach every route.
    expect(reached).toBeGreaterThanOrEqual(13 * 5);
  });

  it('holds the Idempotency-Key of an interaction answer sent in absolute-form, percent-encoded or canonical form', async () => {
    const { id, token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'ping' });
    const route = { method: 'POST', url: '/api/v1/interactions/:token', auth: 'interaction' };
    const path = `/api/v1/interactions/${token}`;
    const answers: RawAnswer[] = [];
    for (const target of [
      `http://127.0.0.1:${port}${path}`,
      `http://127.0.0.1:${port}${path}`,
      path.replace('api', '%61pi'),
      path,
    ]) {
      answers.push(await exchange(requestText(route, target, 'same-key')));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.headers['idempotent-replayed'])).toEqual([undefined, 'true', 'true', 'true']);
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect((await h.ctl('GET', `/interactions/${id}`)).json.answers).toHaveLength(1);
  });

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
      for (let i = 0; i < 3; i++) {
        const socket = await open(limitedPort);
        const answer = nextAnswer(socket);
        socket.write(
          `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
        statuses.push((await answer).status);
        socket.destroy();
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
