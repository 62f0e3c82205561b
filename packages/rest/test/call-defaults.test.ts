import { AbortedError, type CallInfo, RestClient } from '@boardbot/rest';
import {
  BOARD,
  type LoopbackServer,
  message,
  rateLimitHeaders,
  sendJson,
  startLoopbackServer,
} from '@boardbot/test-support';
import { afterEach, describe, expect, it } from 'vitest';

const TOKEN = 'app-token-for-call-defaults';
const RL = rateLimitHeaders(1000, 999, 1);
const MESSAGE_ID = '00000000-0000-4000-8000-000000000001';

let server: LoopbackServer | undefined;
let client: RestClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe('callDefaults', () => {
  it('gives each call the options of where it is made, a fresh key per write, and says which calls are writes', async () => {
    server = await startLoopbackServer((_req, res) => sendJson(res, 200, message(1), RL));
    const seen: CallInfo[] = [];
    let n = 0;
    client = new RestClient({
      token: TOKEN,
      baseUrl: server.baseUrl,
      callDefaults: (call) => {
        seen.push(call);
        return { requestId: 'scope-req', ...(call.idempotent ? { idempotencyKey: `evt-7-${n++}` } : {}) };
      },
    });
    await client.sendMessage(BOARD, { content: 'a' });
    await client.editMessage(BOARD, MESSAGE_ID, { content: 'b' });
    await client.getBoard(BOARD);
    expect(seen.map((c) => [c.method, c.idempotent])).toEqual([
      ['POST', true],
      ['PATCH', true],
      ['GET', false],
    ]);
    const [send, edit, get] = server.received;
    expect(send?.headers).toMatchObject({ 'x-request-id': 'scope-req', 'idempotency-key': 'evt-7-0' });
    expect(edit?.headers).toMatchObject({ 'x-request-id': 'scope-req', 'idempotency-key': 'evt-7-1' });
    expect(get?.headers['x-request-id']).toBe('scope-req');
    expect(get?.headers['idempotency-key']).toBeUndefined();
  });

  it("lets a call's own options win over the inherited ones", async () => {
    server = await startLoopbackServer((_req, res) => sendJson(res, 200, message(1), RL));
    client = new RestClient({
      token: TOKEN,
      baseUrl: server.baseUrl,
      callDefaults: () => ({ requestId: 'scope-req', idempotencyKey: 'scope-key' }),
    });
    await client.sendMessage(BOARD, { content: 'a' }, { idempotencyKey: 'own-key', requestId: undefined });
    expect(server.received[0]?.headers).toMatchObject({ 'x-request-id': 'scope-req', 'idempotency-key': 'own-key' });
  });

  it('aborts a call when the inherited signal is aborted, even when the call brings its own signal', async () => {
    server = await startLoopbackServer((_req, res) => sendJson(res, 200, message(1), RL));
    const scope = new AbortController();
    scope.abort(new Error('handler timed out'));
    client = new RestClient({ token: TOKEN, baseUrl: server.baseUrl, callDefaults: () => ({ signal: scope.signal }) });
    const own = new AbortController();
    await expect(client.sendMessage(BOARD, { content: 'late' }, { signal: own.signal })).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(server.received).toHaveLength(0);
  });
});
