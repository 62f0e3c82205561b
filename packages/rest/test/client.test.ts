import { readFileSync } from 'node:fs';
import {
  DEFAULT_REST_OPTIONS,
  InvalidArgumentError,
  REST_ERROR_CODES,
  RestClient,
  resolveOptions,
  userAgent,
  VERSION,
} from '@boardbot/rest';
import {
  BOARD,
  envelope,
  headerUnsafeValues,
  message,
  rateLimitHeaders,
  recordingLogger,
  type Script,
  sendJson,
} from '@boardbot/test-support';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { clientFor } from './support/client-for.js';
import { scriptedClients } from './support/scripted-clients.js';
import { servedForTest } from './support/served-for-test.js';

const TOKEN = 'app-token-SHOULD-NEVER-LEAK-1234';
const INTERACTION = 'aW50ZXJhY3Rpb24tdG9rZW4tc2hvdWxkLW5ldmVyLWxlYWs';
const RL = rateLimitHeaders(1000, 999, 1);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ok: Script = (_req, res) => sendJson(res, 200, message(1), RL);
const start = scriptedClients({ token: TOKEN });

describe('options', () => {
  it('has documented defaults', () => {
    expect(resolveOptions({})).toMatchObject({
      baseUrl: 'http://127.0.0.1:8787/api/v1',
      timeoutMs: 15_000,
      retries: 3,
      maxRateLimitWaitMs: 60_000,
      maxQueued: 10_000,
    });
    expect(Object.keys(DEFAULT_REST_OPTIONS).every((k) => readme.includes(`\`${k}\``))).toBe(true);
  });

  it.each([
    [{ baseUrl: 'ftp://example.com' }, '/baseUrl'],
    [{ baseUrl: 'not a url' }, '/baseUrl'],
    [{ timeoutMs: 0 }, '/timeoutMs'],
    [{ retries: -1 }, '/retries'],
    [{ retries: 1.5 }, '/retries'],
    [{ maxQueued: 0 }, '/maxQueued'],
    [{ retryMaxMs: 1, retryBaseMs: 10 }, '/retryMaxMs'],
    [{ userAgentSuffix: 'a\r\nX-Evil: 1' }, '/userAgentSuffix'],
    [{ userAgentSuffix: 'a\0b' }, '/userAgentSuffix'],
  ])('rejects %o naming the option', (options, path) => {
    const err = (() => {
      try {
        new RestClient(options);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).details[0]?.path).toBe(path);
  });

  it.each(headerUnsafeValues(TOKEN))('rejects a token with %s, a stable code and without showing it', (_what, bad) => {
    const error = (() => {
      try {
        new RestClient({ token: bad });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ code: 'BOARDBOT_INVALID_ARGUMENT', details: [{ path: '/token' }] });
    const e = error as Error;
    expect(JSON.stringify({ ...e, m: e.message, s: e.stack })).not.toContain(TOKEN);
  });

  it('keeps its version equal to package.json and names boardbot in the User-Agent', () => {
    expect(VERSION).toBe(pkg.version);
    expect(userAgent()).toMatch(new RegExp(`^boardbot-rest/${pkg.version} \\(boardbot; .*\\) node/v\\d+`));
    expect(userAgent('dice-bot/1.0')).toMatch(/ dice-bot\/1\.0$/);
  });

  it('lists every error code in the README', () => {
    for (const code of REST_ERROR_CODES) expect(readme).toContain(`\`${code}\``);
  });
});

describe('requests on the wire', () => {
  it('sends the bearer token, User-Agent, JSON headers and X-Request-Id; none of it on endpoint 12 but the rest', async () => {
    const server = await servedForTest(ok);
    const client = clientFor(server, { token: TOKEN, baseUrl: `${server.baseUrl}/`, userAgentSuffix: 'test-bot/2' });
    await client.sendMessage(
      BOARD,
      { content: 'hi', replyTo: '33333333-3333-4333-8333-333333333333' },
      { requestId: 'req-42' },
    );
    await client.answerInteraction(INTERACTION, { content: 'pong' });
    const [send, answer] = server.received;
    expect(send).toMatchObject({ method: 'POST', url: `/api/v1/boards/${BOARD}/messages` });
    expect(JSON.parse(send?.body ?? '')).toEqual({ content: 'hi', replyTo: '33333333-3333-4333-8333-333333333333' });
    expect(send?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'x-request-id': 'req-42',
      'user-agent': expect.stringMatching(/^boardbot-rest\/.* test-bot\/2$/),
    });
    expect(answer).toMatchObject({ method: 'POST', url: `/api/v1/interactions/${INTERACTION}` });
    expect(answer?.headers.authorization).toBeUndefined();
    expect(answer?.headers['idempotency-key']).toBeTruthy();
  });

  it('works without a token for endpoint 12 only, and says how to fix the others', async () => {
    const { server, client } = await start(ok, { token: undefined });
    await expect(client.answerInteraction(INTERACTION, { content: 'ok' })).resolves.toMatchObject({ seq: 1 });
    await expect(client.getApp()).rejects.toThrow(/BOARDBOT_TOKEN/);
    expect(server.received).toHaveLength(1);
  });

  it('uses a dispatcher passed in options and leaves it open on close()', async () => {
    const agent = new Agent();
    const { client } = await start((_req, res) => sendJson(res, 200, { id: 'app' }, RL), { dispatcher: agent });
    await client.getApp();
    await client.close();
    expect(agent.closed).toBe(false);
    await agent.close();
  });

  it('rejects bad input with the list of problems and sends nothing', async () => {
    const { server, client } = await start(ok);
    const bodyTypo = { content: 'x', reply_to: 'abc' } as unknown as { content: string };
    await expect(client.sendMessage(BOARD, bodyTypo)).rejects.toMatchObject({
      code: 'BOARDBOT_INVALID_ARGUMENT',
      details: [expect.objectContaining({ path: '/reply_to' })],
    });
    await expect(client.sendMessage(BOARD, { content: '' })).rejects.toMatchObject({
      details: [{ path: '/', message: 'Expected a non-empty content or at least one embed' }],
    });
    await expect(client.sendMessage(BOARD, { embeds: [{ color: 'red' }] })).rejects.toMatchObject({
      details: [expect.objectContaining({ path: '/embeds/0/color' })],
    });
    await expect(client.editMessage(BOARD, 'm', {} as { content: string })).rejects.toThrow(InvalidArgumentError);
    await expect(
      client.replaceCommands([
        { name: 'roll', description: 'Roll' },
        { name: 'roll', description: 'Again' },
      ]),
    ).rejects.toMatchObject({ details: [{ path: '/1/name', message: 'Duplicate command name "roll"' }] });
    await expect(client.getBoard('')).rejects.toMatchObject({ code: 'BOARDBOT_INVALID_ARGUMENT' });
    await expect(client.getUser('..')).rejects.toMatchObject({ code: 'BOARDBOT_INVALID_ARGUMENT' });
    await expect(client.sendMessage(BOARD, { content: 'x' }, { idempotencyKey: 'has space' })).rejects.toThrow(
      /idempotencyKey/,
    );
    await expect(client.getApp({ requestId: 'a\nb' })).rejects.toThrow(/requestId/);
    expect(server.received).toHaveLength(0);
  });

  it('encodes ids in paths', async () => {
    const { server, client } = await start((_req, res) => sendJson(res, 200, { id: 'u' }, RL));
    await client.getUser('a/b?c');
    expect(server.received[0]?.url).toBe('/api/v1/users/a%2Fb%3Fc');
  });
});

describe('secrets', () => {
  it('never puts the app token or an interaction token in an error, a log line or an event', async () => {
    const logger = recordingLogger();
    let n = 0;
    const { client } = await start(
      (req, res) => {
        n++;
        const echo = `you sent ${req.headers.authorization ?? ''} to ${req.url}`;
        if (n % 3 === 0) return res.socket?.destroy();
        if (n % 3 === 1) return sendJson(res, 503, envelope('unavailable', echo), { ...RL, 'retry-after': '0' });
        sendJson(res, 404, envelope('unknown_interaction', echo), RL);
      },
      { logger },
    );
    const events: unknown[] = [];
    client
      .on('retry', (e) => events.push(e))
      .on('response', (e) => events.push(e))
      .on('rateLimited', (e) => events.push(e));
    const errors: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      errors.push(
        await client.answerInteraction(INTERACTION, { content: 'x' }, { requestId: `r${i}` }).catch((e: unknown) => e),
      );
      errors.push(await client.getApp().catch((e: unknown) => e));
    }
    const dump = (e: unknown): unknown =>
      e instanceof Error ? { ...e, name: e.name, message: e.message, stack: e.stack, cause: dump(e.cause) } : e;
    const everything = JSON.stringify({ errors: errors.map(dump), lines: logger.lines, events });
    expect(errors.some((e) => e instanceof Error)).toBe(true);
    expect(everything).toContain('/interactions/:token');
    expect(everything).toContain('r1');
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(INTERACTION);
  });

  it('binds the request id on the call’s log lines, through the per-call logger', async () => {
    const base = recordingLogger();
    const perCall = recordingLogger();
    const { client } = await start(
      (_req, res, i) =>
        i === 0 ? sendJson(res, 500, envelope('internal_error'), RL) : sendJson(res, 200, { id: 'a' }, RL),
      { logger: base },
    );
    await client.getApp({ requestId: 'evt-7', logger: perCall });
    expect(base.lines).toEqual([]);
    expect(perCall.lines).toEqual([
      expect.objectContaining({
        level: 'debug',
        bindings: expect.objectContaining({
          requestId: 'evt-7',
          method: 'GET',
          path: '/app',
          reason: 'status',
          status: 500,
        }),
      }),
    ]);
  });
});
