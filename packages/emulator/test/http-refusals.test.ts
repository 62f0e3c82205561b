import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TOKEN, FakeClock, Harness } from './helpers/harness.js';
import { nextAnswer, open, type RawAnswer, rawExchange } from './helpers/raw-http.js';

// Requests that Node's HTTP layer refuses before any route (malformed, oversized, too slow) get the
// contract's envelope and the rate-limit headers like every other answer. Regression: they used to
// get Fastify's or Node's own bodies (or none at all: no Host, CONNECT, a 417 for an Expect).
// No credential can be read from them: each is counted against the caller's address (loopback here).

let h: Harness;
let port: number;
let general: string;
// The rate windows stand still (the HTTP layer's timeouts are Node's own, on the real clock), so
// every refusal of this file takes one more request of the address's one window.
let addressRemaining = 50;

beforeAll(async () => {
  h = await Harness.start({ now: new FakeClock().now, limits: { headersTimeoutMs: 400, requestTimeoutMs: 800 } });
  port = Number(new URL((await h.emu.listen({ port: 0 })).url).port);
  general = h.seed.general.id;
});
afterAll(() => h.close());

function rateOf(r: RawAnswer): string[] {
  return [r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining'], r.headers['x-ratelimit-reset']].map(
    String,
  );
}

/** Checks a refusal's envelope, and that it was counted against the caller's address. */
function expectRefusal(r: RawAnswer, status: number, code: string, what = ''): void {
  expect([what, r.status, r.json?.error?.code]).toEqual([what, status, code]);
  expect(typeof r.json.error.message).toBe('string');
  expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
  addressRemaining--;
  expect([what, ...rateOf(r)]).toEqual([what, '50', String(addressRemaining), '1.000']);
}

const host = () => `Host: 127.0.0.1:${port}`;

describe('refusals of the HTTP layer', () => {
  it('answers malformed requests with 400 bad_request in the envelope, with the rate-limit headers of the caller’s address', async () => {
    const cases: [string, string][] = [
      [
        'malformed chunking',
        `POST /api/v1/app/commands HTTP/1.1\r\n${host()}\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n[]\r\n0\r\n\r\n`,
      ],
      ['a space in the path', `GET /api/v1/a pp HTTP/1.1\r\n${host()}\r\n\r\n`],
      ['a NUL in the path', `GET /api/v1/a\0pp HTTP/1.1\r\n${host()}\r\n\r\n`],
      ['a tab in the path', `GET /api/v1/a\tpp HTTP/1.1\r\n${host()}\r\n\r\n`],
      [
        'both Content-Length and Transfer-Encoding',
        `POST /api/v1/app/commands HTTP/1.1\r\n${host()}\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      ],
      [
        'two Content-Lengths',
        `POST /api/v1/app/commands HTTP/1.1\r\n${host()}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n[]`,
      ],
      ['a header without a colon', `GET /api/v1/app HTTP/1.1\r\n${host()}\r\nNot a header\r\n\r\n`],
      ['an unknown method', `BREW /api/v1/app HTTP/1.1\r\n${host()}\r\n\r\n`],
      ['an unknown HTTP version', `GET /api/v1/app HTTP/3.7\r\n${host()}\r\n\r\n`],
      ['no Host', `GET /api/v1/app HTTP/1.1\r\nAuthorization: Bearer ${DEV_TOKEN}\r\n\r\n`],
      ['no Host, HTTP/1.0', `GET /api/v1/app HTTP/1.0\r\nAuthorization: Bearer ${DEV_TOKEN}\r\n\r\n`],
      ['CONNECT', `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`],
    ];
    for (const [what, text] of cases) expectRefusal(await rawExchange(port, text), 400, 'bad_request', what);
  });

  it('answers a head over 16 KiB with 431 headers_too_large: a big header, a 17,000-digit limit', async () => {
    const big = `GET /api/v1/app HTTP/1.1\r\n${host()}\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`;
    expectRefusal(await rawExchange(port, big), 431, 'headers_too_large', 'big header');
    const digits = `GET /api/v1/boards/${general}/messages?limit=${'1'.repeat(17_000)} HTTP/1.1\r\n${host()}\r\n\r\n`;
    expectRefusal(await rawExchange(port, digits), 431, 'headers_too_large', 'long limit');
  });

  it('serves a request with an unknown Expect instead of a bare 417', async () => {
    const r = await rawExchange(
      port,
      `GET /api/v1/app HTTP/1.1\r\n${host()}\r\nAuthorization: Bearer ${DEV_TOKEN}\r\nExpect: tea\r\n\r\n`,
    );
    expect([r.status, r.json.name]).toEqual([200, 'dev-bot']);
  });
});

/** Uploads `bytes` of JSON with node:http; resolves with the answer and any error the client saw. */
function upload(
  port: number,
  general: string,
  bytes: number,
  chunked: boolean,
): Promise<{ status: number; body: string; error?: string }> {
  const body = Buffer.from(JSON.stringify({ content: 'x'.repeat(bytes - 14) }));
  return new Promise((resolve) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${DEV_TOKEN}`,
      'content-type': 'application/json',
    };
    if (!chunked) headers['content-length'] = String(body.length);
    const req = request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: `/api/v1/boards/${general}/messages`,
      headers,
    });
    let error: string | undefined;
    req.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => {
        // Whatever the client saw until the connection was gone counts (an EPIPE comes after).
        req.socket?.once('close', () =>
          resolve({ status: res.statusCode ?? 0, body: text, ...(error ? { error } : {}) }),
        );
        if (req.socket?.destroyed) resolve({ status: res.statusCode ?? 0, body: text, ...(error ? { error } : {}) });
      });
    });
    for (let at = 0; at < body.length; at += 256 * 1024) req.write(body.subarray(at, at + 256 * 1024));
    req.end();
  });
}

describe('a body over 1 MiB', () => {
  // The default timeouts: a 50 MiB upload on a loaded machine takes seconds.
  let big: Harness;
  let bigPort: number;
  beforeAll(async () => {
    big = await Harness.start();
    bigPort = Number(new URL((await big.emu.listen({ port: 0 })).url).port);
  });
  afterAll(() => big.close());

  for (const mib of [2, 50]) {
    for (const chunked of [false, true]) {
      it(`gets a 413 payload_too_large the client reads, without EPIPE (${mib} MiB${chunked ? ', chunked' : ''})`, async () => {
        const r = await upload(bigPort, big.seed.general.id, mib * 1024 * 1024, chunked);
        expect(r.error).toBeUndefined();
        expect(r.status).toBe(413);
        expect(JSON.parse(r.body).error.code).toBe('payload_too_large');
        expect(await big.messages(big.seed.general.id)).toEqual([]);
      });
    }
  }
});

describe('slow clients', () => {
  it('answers a head that arrives too slowly with 408 request_timeout in the envelope', async () => {
    const socket = await open(port);
    const answer = nextAnswer(socket);
    socket.write(`GET /api/v1/app HTTP/1.1\r\n${host()}\r\nAuthorization: Bearer`);
    expectRefusal(await answer, 408, 'request_timeout');
    socket.destroy();
  });

  it('answers a body that arrives too slowly with 408 and its token’s rate-limit headers, and frees its Idempotency-Key', async () => {
    const body = JSON.stringify({ content: 'slow' });
    const head = (key: string) =>
      `POST /api/v1/boards/${general}/messages HTTP/1.1\r\n${host()}\r\nAuthorization: Bearer ${DEV_TOKEN}\r\n` +
      `Content-Type: application/json\r\nIdempotency-Key: ${key}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const app = await rawExchange(
      port,
      `GET /api/v1/app HTTP/1.1\r\n${host()}\r\nAuthorization: Bearer ${DEV_TOKEN}\r\n\r\n`,
    );
    const appRemaining = Number(app.headers['x-ratelimit-remaining']);
    const socket = await open(port);
    const answer = nextAnswer(socket);
    socket.write(`${head('held')}${body.slice(0, 4)}`);
    const refused = await answer;
    expect([refused.status, refused.json.error.code]).toEqual([408, 'request_timeout']);
    // Its head was counted against the app token: the refusal reports that window, counted once.
    expect(rateOf(refused)).toEqual(['50', String(appRemaining - 1), '1.000']);
    socket.destroy();
    // The key is free again: a complete request with it is served (not 409 idempotency_in_progress).
    const again = await rawExchange(port, `${head('held')}${body}`);
    expect([again.status, again.json.content]).toEqual([200, 'slow']);
    expect(rateOf(again)).toEqual(['50', String(appRemaining - 2), '1.000']);
  });
});
