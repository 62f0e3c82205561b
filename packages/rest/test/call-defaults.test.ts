import { AbortedError, type CallInfo } from '@boardbot/rest';
import { BOARD, message, rateLimitHeaders, type Script, sendJson } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { scriptedClients } from './support/scripted-clients.js';

const TOKEN = 'app-token-for-call-defaults';
const RL = rateLimitHeaders(1000, 999, 1);
const MESSAGE_ID = '00000000-0000-4000-8000-000000000001';
const ok: Script = (_req, res) => sendJson(res, 200, message(1), RL);
const start = scriptedClients({ token: TOKEN });

describe('callDefaults', () => {
  it('gives each call the options of where it is made, a fresh key per write, and says which calls are writes', async () => {
    const seen: CallInfo[] = [];
    let n = 0;
    const { server, client } = await start(ok, {
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
    const { server, client } = await start(ok, {
      callDefaults: () => ({ requestId: 'scope-req', idempotencyKey: 'scope-key' }),
    });
    await client.sendMessage(BOARD, { content: 'a' }, { idempotencyKey: 'own-key', requestId: undefined });
    expect(server.received[0]?.headers).toMatchObject({ 'x-request-id': 'scope-req', 'idempotency-key': 'own-key' });
  });

  it('aborts a call when the inherited signal is aborted, even when the call brings its own signal', async () => {
    const scope = new AbortController();
    scope.abort(new Error('handler timed out'));
    const { server, client } = await start(ok, { callDefaults: () => ({ signal: scope.signal }) });
    const own = new AbortController();
    await expect(client.sendMessage(BOARD, { content: 'late' }, { signal: own.signal })).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(server.received).toHaveLength(0);
  });
});
