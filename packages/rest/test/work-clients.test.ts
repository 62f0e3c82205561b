import { AbortedError, type CallCarrier, type RequestOptions, RestClient } from '@boardbot/rest';
import { BOARD, message, rateLimitHeaders, type Script, sendJson } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { scriptedClients } from './support/scripted-clients.js';

const TOKEN = 'app-token-for-work-clients';
const MESSAGE_ID = '00000000-0000-4000-8000-000000000001';
const ok: Script = (_req, res) => sendJson(res, 200, message(1), rateLimitHeaders(1000, 999, 1));
const start = scriptedClients({ token: TOKEN });

/** A work's carrier: fixed options, and keys `job-<n>` counted from 0 as they are taken. */
function carrier(options: RequestOptions = { requestId: 'job-req' }): CallCarrier & { taken: number } {
  return {
    taken: 0,
    options: () => options,
    nextWriteKey() {
      return `job-${this.taken++}`;
    },
  };
}

describe("a work's client (forWork)", () => {
  it('gives each call the work’s options, and each write (POST, PATCH) the work’s next key; the first client’s calls carry nothing', async () => {
    const { server, client } = await start(ok);
    const work = client.forWork(carrier());
    await work.sendMessage(BOARD, { content: 'a' });
    await work.editMessage(BOARD, MESSAGE_ID, { content: 'b' });
    await work.getBoard(BOARD);
    await work.deleteMessage(BOARD, MESSAGE_ID);
    await client.sendMessage(BOARD, { content: 'outside' });
    const [send, edit, get, del, outside] = server.received;
    expect(send?.headers).toMatchObject({ 'x-request-id': 'job-req', 'idempotency-key': 'job-0' });
    expect(edit?.headers).toMatchObject({ 'x-request-id': 'job-req', 'idempotency-key': 'job-1' });
    expect(get?.headers['x-request-id']).toBe('job-req');
    expect(get?.headers['idempotency-key']).toBeUndefined();
    expect(del?.headers['idempotency-key']).toBeUndefined();
    expect(outside?.headers['x-request-id']).not.toBe('job-req');
    expect(outside?.headers['idempotency-key']).not.toMatch(/^job-/);
    expect(work.options).toBe(client.options);
  });

  it('takes the keys of writes made side by side in the order they were made, before the rate limit holds them', async () => {
    // One request per window: the writes leave one by one, after the calls were all made.
    const { server, client } = await start((_req, res) => sendJson(res, 200, message(1), rateLimitHeaders(1, 0, 0.02)));
    const work = client.forWork(carrier());
    await Promise.all(['a', 'b', 'c'].map((content) => work.sendMessage(BOARD, { content })));
    const sent = server.received.map((r) => [JSON.parse(r.body).content, r.headers['idempotency-key']]);
    expect(sent.sort()).toEqual([
      ['a', 'job-0'],
      ['b', 'job-1'],
      ['c', 'job-2'],
    ]);
  });

  it("lets a call's own options win, and gives a write with its own key no ordinal", async () => {
    const { server, client } = await start(ok);
    const keys = carrier();
    const work = client.forWork(keys);
    await work.editMessage(BOARD, MESSAGE_ID, { content: 'a' }, { idempotencyKey: 'named-1', requestId: 'own' });
    await work.sendMessage(BOARD, { content: 'b' });
    expect(server.received.map((r) => [r.headers['x-request-id'], r.headers['idempotency-key']])).toEqual([
      ['own', 'named-1'],
      ['job-req', 'job-0'],
    ]);
    expect(keys.taken).toBe(1);
  });

  it("aborts a call when the work's signal is aborted, even when the call brings its own signal", async () => {
    const abandoned = new AbortController();
    abandoned.abort(new Error('handler timed out'));
    const { server, client } = await start(ok);
    const work = client.forWork(carrier({ signal: abandoned.signal }));
    const own = new AbortController();
    await expect(work.sendMessage(BOARD, { content: 'late' }, { signal: own.signal })).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(server.received).toHaveLength(0);
  });

  it('is of the class of the client it was made from, so a subclass keeps its overrides', async () => {
    const { server } = await start(ok);
    const sent: string[] = [];
    class Noting extends RestClient {
      override sendMessage(...args: Parameters<RestClient['sendMessage']>) {
        sent.push(args[1].content ?? '');
        return super.sendMessage(...args);
      }
    }
    const client = new Noting({ token: TOKEN, baseUrl: server.baseUrl });
    const work = client.forWork(carrier());
    expect(work).toBeInstanceOf(Noting);
    await work.sendMessage(BOARD, { content: 'noted' });
    expect(sent).toEqual(['noted']);
    expect(server.received[0]?.headers['idempotency-key']).toBe('job-0');
    await client.close();
  });

  it('shares the client it was made from: closing that one closes it too', async () => {
    const { client } = await start(ok);
    const work = client.forWork(carrier());
    await client.close();
    await expect(work.sendMessage(BOARD, { content: 'after close' })).rejects.toMatchObject({
      code: 'BOARDBOT_ABORTED',
    });
  });
});
