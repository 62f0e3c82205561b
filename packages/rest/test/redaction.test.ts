import type { ServerResponse } from 'node:http';
import { ApiError, InvalidResponseError, type RestClient } from '@boardbot/rest';
import { envelope, type Received, rateLimitHeaders, sendJson } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { scriptedClients } from './support/scripted-clients.js';

// Distinct credentials: a prefix of six characters of either one appears nowhere else, so finding
// one in an error means a credential (or the half a truncation left of it) escaped.
const TOKEN = 'Qx7app/token+k3Yv-0123456789';
const INTERACTION = 'Wm4itr-aW50ZXJhY3Rpb24tdG9rZW4tc2hvdWxkLW5ldmVy';
const RL = rateLimitHeaders(1000, 999, 1);
// The server's message is kept up to 1000 characters and a non-envelope body quoted in 200.
const MESSAGE_BOUND = 1000;
const EXCERPT_BOUND = 200;

/** The interaction token a request carried in its path (the server's view of it). */
const pathToken = (req: Received) => req.url.split('/').at(-1) ?? '';

/** Echo scripts, each putting a credential somewhere a careless server might. */
type Echo = (req: Received, res: ServerResponse) => void;

const ECHOES = {
  'the app token in error.message': (req, res) =>
    sendJson(res, 403, envelope('forbidden', `token ${req.headers.authorization?.slice(7)} may not do this`), RL),
  'the Authorization header value in details': (req, res) =>
    sendJson(
      res,
      400,
      envelope('validation_failed', 'invalid', {
        details: [
          { path: `/headers/${req.headers.authorization}`, message: `got "${req.headers.authorization}"` },
          { path: '/content', message: 'Expected a string' },
        ],
      }),
      RL,
    ),
  'the app token as the error code': (req, res) =>
    sendJson(res, 400, envelope(`bad_${req.headers.authorization?.slice(7)}`, 'odd'), RL),
  'the app token JSON-escaped (\\/) in error.message': (req, res) => {
    const text = JSON.stringify(envelope('forbidden', `no: ${req.headers.authorization}`)).replaceAll('/', '\\/');
    res.writeHead(403, { 'content-type': 'application/json', ...RL });
    res.end(text);
  },
  'the app token cut in half by the message bound': (req, res) => {
    const token = req.headers.authorization?.slice(7) ?? '';
    const pad = 'x'.repeat(MESSAGE_BOUND - Math.floor(token.length / 2));
    sendJson(res, 403, envelope('forbidden', `${pad}${token} and more`), RL);
  },
  'the app token cut in half by the excerpt of an HTML error page': (req, res) => {
    const token = req.headers.authorization?.slice(7) ?? '';
    const pad = 'y'.repeat(EXCERPT_BOUND - Math.floor(token.length / 2));
    res.writeHead(502, { 'content-type': 'text/html', ...RL });
    res.end(`<html><body>${pad}${token} bad gateway</body></html>`);
  },
} satisfies Record<string, Echo>;

const INTERACTION_ECHOES = {
  'the interaction token from the path in error.message': (req, res) =>
    sendJson(res, 404, envelope('unknown_interaction', `no interaction ${pathToken(req)}`), RL),
  'the interaction token cut in half by the message bound': (req, res) => {
    const token = pathToken(req);
    const pad = 'z'.repeat(MESSAGE_BOUND - Math.floor(token.length / 2));
    sendJson(res, 410, envelope('interaction_expired', `${pad}${token}`), RL);
  },
  'the interaction token in a 2xx body that is not JSON': (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', ...RL });
    // Short and broken at its first byte, so that V8's parse error would quote the token.
    res.end(`[${pathToken(req)}, "stored"]`);
  },
  'the interaction token in a 2xx JSON body of the wrong shape': (req, res) =>
    sendJson(res, 200, `answered ${pathToken(req)}`, RL),
} satisfies Record<string, Echo>;

/** Everything an error exposes, its causes included, as text. */
function exposed(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return [
    JSON.stringify({ ...error }),
    error.message,
    String(error.stack),
    error.cause === undefined ? '' : exposed(error.cause),
  ].join('\n');
}

/** Fails when `text` holds a secret or any prefix of six characters of one. */
function expectNoSecret(text: string): void {
  for (const secret of [TOKEN, INTERACTION]) {
    for (let n = 6; n <= secret.length; n++) expect(text).not.toContain(secret.slice(0, n));
  }
}

const start = scriptedClients({ token: TOKEN, retries: 0 });

async function failureOf(script: Echo, call: (c: RestClient) => Promise<unknown>): Promise<unknown> {
  const { client } = await start((req, res) => script(req, res));
  return call(client).then(
    () => expect.unreachable('the call should fail'),
    (e: unknown) => e,
  );
}

describe('a server that echoes a credential back (redacted before any truncation)', () => {
  it.each(Object.entries(ECHOES))('replaces %s with [redacted]', async (_name, script) => {
    const error = await failureOf(script, (c) => c.getApp());
    expect(error).toBeInstanceOf(Error);
    const text = exposed(error);
    expectNoSecret(text);
    expect(text).toContain('[redacted]');
  });

  it.each(Object.entries(INTERACTION_ECHOES))('replaces %s with [redacted]', async (_name, script) => {
    const error = await failureOf(script, (c) => c.answerInteraction(INTERACTION, { content: 'hi' }));
    expect(error).toBeInstanceOf(Error);
    const text = exposed(error);
    expectNoSecret(text);
    expect(text).toContain('[redacted]');
  });

  it('keeps the rest of what the server said: code, message, details and their bounds', async () => {
    const error = await failureOf(ECHOES['the Authorization header value in details'], (c) => c.getApp());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      apiCode: 'validation_failed',
      serverMessage: 'invalid',
      details: [
        { path: '/headers/Bearer [redacted]', message: 'got "Bearer [redacted]"' },
        { path: '/content', message: 'Expected a string' },
      ],
    });
    const cut = await failureOf(ECHOES['the app token cut in half by the message bound'], (c) => c.getApp());
    expect((cut as ApiError).serverMessage.length).toBeLessThanOrEqual(MESSAGE_BOUND);
    expect((cut as ApiError).serverMessage).toMatch(/^x+\[redact/);
  });

  it('quotes a 2xx body that is not JSON in the excerpt, redacted', async () => {
    const error = await failureOf(INTERACTION_ECHOES['the interaction token in a 2xx body that is not JSON'], (c) =>
      c.answerInteraction(INTERACTION, { content: 'hi' }),
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).excerpt).toBe('[[redacted], "stored"]');
  });
});
