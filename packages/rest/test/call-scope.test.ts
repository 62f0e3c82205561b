import { AbortedError, type CallScope, withCallScope } from '@boardbot/rest';
import { BOARD, message, rateLimitHeaders, type Script, sendJson } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { scriptedClients } from './support/scripted-clients.js';

const TOKEN = 'app-token-for-call-scopes';
const RL = rateLimitHeaders(1000, 999, 1);
const MESSAGE_ID = '00000000-0000-4000-8000-000000000001';
const ok: Script = (_req, res) => sendJson(res, 200, message(1), RL);
const start = scriptedClients({ token: TOKEN });
const scope = (options: CallScope['options'] = { requestId: 'scope-req' }): CallScope => ({
  options,
  keys: { prefix: 'evt-7-', next: 0 },
});

describe('call scopes', () => {
  it("give each call made in the scope's flow its options, and each write (POST, PATCH) the scope's next key", async () => {
    const { server, client } = await start(ok);
    await withCallScope(scope(), async () => {
      await client.sendMessage(BOARD, { content: 'a' });
      await client.editMessage(BOARD, MESSAGE_ID, { content: 'b' });
      await client.getBoard(BOARD);
    });
    await client.sendMessage(BOARD, { content: 'outside' });
    const [send, edit, get, outside] = server.received;
    expect(send?.headers).toMatchObject({ 'x-request-id': 'scope-req', 'idempotency-key': 'evt-7-0' });
    expect(edit?.headers).toMatchObject({ 'x-request-id': 'scope-req', 'idempotency-key': 'evt-7-1' });
    expect(get?.headers['x-request-id']).toBe('scope-req');
    expect(get?.headers['idempotency-key']).toBeUndefined();
    // Outside any scope, a write gets a fresh random key of its own.
    expect(outside?.headers['x-request-id']).not.toBe('scope-req');
    expect(outside?.headers['idempotency-key']).not.toMatch(/^evt-7-/);
  });

  it("stamp a scoped facade's writes wherever it is called, sharing the client's queues; another scope's flow wins", async () => {
    const { server, client } = await start(ok);
    const facade = client.scoped(scope());
    await facade.sendMessage(BOARD, { content: 'a' });
    await withCallScope(scope({ requestId: 'other' }), () => facade.sendMessage(BOARD, { content: 'b' }));
    expect(server.received.map((r) => [r.headers['x-request-id'], r.headers['idempotency-key']])).toEqual([
      ['scope-req', 'evt-7-0'],
      ['other', 'evt-7-0'],
    ]);
    expect(facade.options).toBe(client.options);
  });

  it("let a call's own options win over the scope's", async () => {
    const { server, client } = await start(ok);
    await withCallScope(scope(), () =>
      client.sendMessage(BOARD, { content: 'a' }, { idempotencyKey: 'own-key', requestId: undefined }),
    );
    expect(server.received[0]?.headers).toMatchObject({ 'x-request-id': 'scope-req', 'idempotency-key': 'own-key' });
  });

  it('give a write that brings its own key no ordinal, so the later writes keep theirs', async () => {
    const { server, client } = await start(ok);
    await withCallScope(scope(), async () => {
      await client.editMessage(BOARD, MESSAGE_ID, { content: 'a' }, { idempotencyKey: 'named-1' });
      await client.editMessage(BOARD, MESSAGE_ID, { content: 'b' }, { idempotencyKey: 'named-2' });
      await client.sendMessage(BOARD, { content: 'c' });
    });
    expect(server.received.map((r) => r.headers['idempotency-key'])).toEqual(['named-1', 'named-2', 'evt-7-0']);
  });

  it("abort a call when the scope's signal is aborted, even when the call brings its own signal", async () => {
    const abandoned = new AbortController();
    abandoned.abort(new Error('handler timed out'));
    const { server, client } = await start(ok);
    const own = new AbortController();
    await expect(
      withCallScope(scope({ signal: abandoned.signal }), () =>
        client.sendMessage(BOARD, { content: 'late' }, { signal: own.signal }),
      ),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(server.received).toHaveLength(0);
  });
});
