import type { Message } from '@boardbot/protocol';
import { InvalidArgumentError, InvalidResponseError } from '@boardbot/rest';
import { BOARD, message, rateLimitHeaders, sendJson } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { scriptedClients } from './support/scripted-clients.js';

const RL = rateLimitHeaders(1000, 999, 1);
const start = scriptedClients({ token: 't' });

/** A board of `count` messages served like endpoint 4 (optionally bare arrays, or ignoring `before`). */
function board(count: number, opts: { bare?: boolean; ignoreBefore?: boolean } = {}) {
  const all = Array.from({ length: count }, (_, i) =>
    message(i + 1, i % 5 === 4 ? { deleted_at: '2026-11-21T10:00:00.000Z', content: null } : {}),
  );
  return start((req, res) => {
    const url = new URL(req.url, 'http://x');
    const before =
      url.searchParams.has('before') && !opts.ignoreBefore
        ? Number(url.searchParams.get('before'))
        : Number.POSITIVE_INFINITY;
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const page = all
      .filter((m) => (m.seq as number) < before)
      .reverse()
      .slice(0, limit);
    sendJson(res, 200, opts.bare ? page : { messages: page }, RL);
  });
}

async function collect(it: AsyncIterable<Message>): Promise<number[]> {
  const seqs: number[] = [];
  for await (const m of it) seqs.push(m.seq);
  return seqs;
}

describe('iterateMessages', () => {
  it('walks the whole board newest first, following `before`, tombstones included', async () => {
    const { server, client } = await board(30);
    const seqs = await collect(client.iterateMessages(BOARD, { pageSize: 7 }));
    expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i));
    // Pages of 7: 30..24, 23..17, 16..10, 9..3, 2..1; seq 1 ends the walk without an empty page.
    expect(server.received.map((r) => r.url.split('?')[1])).toEqual([
      'limit=7',
      'before=24&limit=7',
      'before=17&limit=7',
      'before=10&limit=7',
      'before=3&limit=7',
    ]);
  });

  it('uses pages of 100 by default and stops on an empty page', async () => {
    const { server, client } = await board(0);
    expect(await collect(client.iterateMessages(BOARD))).toEqual([]);
    expect(server.received.map((r) => r.url.split('?')[1])).toEqual(['limit=100']);
  });

  it('starts below `before` and stops above `untilSeq`', async () => {
    const { client } = await board(30);
    expect(await collect(client.iterateMessages(BOARD, { before: 20, untilSeq: 12, pageSize: 3 }))).toEqual([
      19, 18, 17, 16, 15, 14, 13,
    ]);
  });

  it('stops after `max` messages without fetching another page', async () => {
    const { server, client } = await board(30);
    expect(await collect(client.iterateMessages(BOARD, { max: 5, pageSize: 5 }))).toEqual([30, 29, 28, 27, 26]);
    expect(server.received).toHaveLength(1);
  });

  it('fetches lazily: breaking out of the loop sends no further request', async () => {
    const { server, client } = await board(30);
    for await (const m of client.iterateMessages(BOARD, { pageSize: 10 })) if (m.seq === 25) break;
    expect(server.received).toHaveLength(1);
  });

  it('accepts bare-array pages (CONTRACT "Tolerance")', async () => {
    const { client } = await board(12, { bare: true });
    expect(await collect(client.iterateMessages(BOARD, { pageSize: 5 }))).toHaveLength(12);
    expect(await client.listMessages(BOARD, { limit: 2 })).toHaveLength(2);
  });

  it('fails with InvalidResponseError instead of looping when the server ignores the cursor', async () => {
    const { client } = await board(30, { ignoreBefore: true });
    await expect(collect(client.iterateMessages(BOARD, { pageSize: 10 }))).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('rejects bad options before any request', async () => {
    const { server, client } = await board(3);
    expect(() => client.iterateMessages(BOARD, { pageSize: 101 })).toThrow(InvalidArgumentError);
    expect(() => client.iterateMessages(BOARD, { before: 0 })).toThrow(/before/);
    expect(() => client.iterateMessages(BOARD, { max: 1.5 })).toThrow(/max/);
    await expect(client.listMessages(BOARD, { limit: 0 })).rejects.toMatchObject({
      code: 'BOARDBOT_INVALID_ARGUMENT',
      details: [{ path: '/limit', message: 'Expected an integer from 1 to 100' }],
    });
    await expect(client.listMessages(BOARD, { before: 0 })).rejects.toMatchObject({
      details: [{ path: '/before', message: 'Expected an integer ≥ 1' }],
    });
    expect(server.received).toHaveLength(0);
  });
});
