import { SseClient } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedOperations, DEV_TOKEN, Harness } from './helpers/harness.js';
import { OPERATION_IDS, openApiProblems } from './helpers/openapi-checker.js';

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
