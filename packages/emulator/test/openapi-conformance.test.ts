import { SseClient } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedOperations, DEV_TOKEN, Harness } from './helpers/harness.js';
import { OPERATION_IDS, openApiProblems } from './helpers/openapi-checker.js';
import { documentAcceptsBody } from './helpers/openapi-request-check.js';

// Every app API answer the harness sees is checked against the OpenAPI document (see helpers). This
// file makes sure each of the 13 operations is exercised, checks the gateway's HTTP answers the same
// way, and shows that the checker does catch a non-conforming answer.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start({ rateLimit: { requests: 100_000 } });
});
afterAll(() => h.close());

describe('OpenAPI conformance', () => {
  it('exercises every REST operation through the checker', async () => {
    const b = h.seed.general.id;
    await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
    const { token } = await h.invoke({ board_id: b, user_id: h.seed.alice.id, command: 'ping' });
    const m = await h.send(b, { content: 'x' });
    await h.api('GET', '/boards');
    await h.api('GET', `/boards/${b}`);
    await h.api('GET', `/boards/${b}/members`);
    await h.api('GET', `/boards/${b}/messages`);
    await h.api('PATCH', `/boards/${b}/messages/${m.id}`, DEV_TOKEN, { body: { content: 'y' } });
    await h.api('DELETE', `/boards/${b}/messages/${m.id}`);
    await h.api('GET', `/users/${h.seed.alice.id}`);
    await h.api('GET', '/app');
    await h.api('GET', '/app/commands');
    await h.api('POST', `/interactions/${token}`, null, { body: { content: 'pong' } });
    const rest = OPERATION_IDS.filter((id) => id !== 'openGateway');
    expect([...checkedOperations].sort()).toEqual(expect.arrayContaining(rest.sort()));
  });

  it('checks the gateway answers: 200 stream, 401 and 429', async () => {
    const { url, apiUrl } = await h.emu.listen({ port: 0 });
    const check = async (c: SseClient, body: string) =>
      openApiProblems({
        method: 'GET',
        url: new URL(`${apiUrl}/gateway`).pathname,
        status: c.status,
        headers: c.res.headers,
        body,
      }).problems;
    const ok = await SseClient.open(`${apiUrl}/gateway`, DEV_TOKEN);
    expect(await check(ok, '')).toEqual([]);
    const streams = [ok];
    for (let i = 0; i < 15; i++) streams.push(await SseClient.open(`${apiUrl}/gateway`, DEV_TOKEN));
    const refused = await SseClient.open(`${apiUrl}/gateway`, DEV_TOKEN);
    expect(refused.status).toBe(429);
    expect(await check(refused, await refused.text())).toEqual([]);
    const anonymous = await SseClient.open(`${apiUrl}/gateway`, 'nope');
    expect(await check(anonymous, await anonymous.text())).toEqual([]);
    for (const s of streams) s.destroy();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  // Issue 30: an independent validator found the document accepting bodies the server refuses. Each body
  // goes to the server and to the document's schema (Ajv on the document itself); they must agree.
  it('refuses in the document the request bodies the server refuses, and accepts those it accepts', async () => {
    await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
    const bodies: unknown[] = [
      {},
      { content: '' },
      { embeds: [] },
      { content: '', embeds: [] },
      { embeds: [{}] },
      { content: 'x', embeds: [{}] },
      { content: 'x' },
      { embeds: [{ title: 't' }] },
      { content: '', embeds: [{ fields: [] }] },
    ];
    type Verdict = { body: unknown; sendMessage: [boolean, boolean]; answerInteraction: [boolean, boolean] };
    const verdicts: Verdict[] = [];
    for (const body of bodies) {
      const sent = await h.api('POST', `/boards/${h.seed.general.id}/messages`, DEV_TOKEN, { body });
      const { token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'ping' });
      const answered = await h.api('POST', `/interactions/${token}`, null, { body });
      verdicts.push({
        body,
        sendMessage: [sent.status === 200, documentAcceptsBody('sendMessage', body)],
        answerInteraction: [answered.status === 200, documentAcceptsBody('answerInteraction', body)],
      });
    }
    const agree = (v: Verdict) => ({
      body: v.body,
      sendMessage: v.sendMessage[0] === v.sendMessage[1],
      answerInteraction: v.answerInteraction[0] === v.answerInteraction[1],
    });
    expect(verdicts.map(agree)).toEqual(bodies.map((body) => ({ body, sendMessage: true, answerInteraction: true })));
    // Both kinds were seen: the list holds bodies the server refuses and bodies it accepts.
    expect(new Set(verdicts.map((v) => v.sendMessage[0]))).toEqual(new Set([true, false]));
  });

  it('declares Idempotent-Replayed, which a replayed answer carries', async () => {
    const headers = { 'idempotency-key': 'conformance-replay-1' };
    const path = `/boards/${h.seed.general.id}/messages`;
    await h.api('POST', path, DEV_TOKEN, { body: { content: 'once' }, headers });
    // The harness checks every answer, its headers included, against the document.
    const replay = await h.api('POST', path, DEV_TOKEN, { body: { content: 'once' }, headers });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const rate = { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '49', 'x-ratelimit-reset': '0.5' };
    const problems = (headers: Record<string, string>) =>
      openApiProblems({
        method: 'GET',
        url: '/api/v1/boards',
        status: 200,
        headers: { ...json, ...rate, ...headers },
        body: JSON.stringify({ boards: [] }),
      }).problems;
    expect(problems({})).toEqual([]);
    expect(problems({ 'idempotent-replayed': 'true' })).toEqual([
      'header idempotent-replayed is not declared for 200 of listBoards',
    ]);
  });

  it('catches answers that do not conform', () => {
    const headers = { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '49', 'x-ratelimit-reset': '0.5' };
    const json = { ...headers, 'content-type': 'application/json; charset=utf-8' };
    const problems = (status: number, h: Record<string, string>, body: unknown) =>
      openApiProblems({ method: 'GET', url: '/api/v1/app', status, headers: h, body: JSON.stringify(body) }).problems;
    const app = {
      id: h.seed.devBot.id,
      name: 'x',
      description: null,
      bot_user_id: h.seed.devBot.id,
      created_at: '2026-11-21T10:00:00.000Z',
    };
    expect(problems(200, json, app)).toEqual([]);
    expect(problems(201, json, app)).not.toEqual([]);
    expect(problems(200, { ...json, 'x-ratelimit-reset': '0.1234' }, app)).not.toEqual([]);
    expect(problems(200, { 'content-type': 'application/json' }, app)).not.toEqual([]);
    expect(problems(200, json, { ...app, id: 'nope' })).not.toEqual([]);
    expect(problems(404, json, { error: { code: 'unknown_board', message: 'm' } })).not.toEqual([]);
    expect(
      problems(401, { ...json, 'www-authenticate': 'Bearer' }, { error: { code: 'unauthorized', message: 'm' } }),
    ).toEqual([]);
  });
});
