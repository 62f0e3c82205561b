import { BOARD, message, rateLimitHeaders, sendJson } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { scriptedClients } from './support/scripted-clients.js';

// RequestOptions.admit: a check made as each attempt leaves (after the rate limit's wait), which a
// replica's streamed answer uses to stop writing once it lost its event's partition.

const RL = rateLimitHeaders(100, 99, 1);
const start = scriptedClients({ token: 'tok' });

describe('admit', () => {
  it('is asked before each attempt is sent, retries included', async () => {
    const { server, client } = await start((_req, res, n) => {
      if (n === 0) sendJson(res, 503, { error: { code: 'unavailable', message: 'busy' } }, RL);
      else sendJson(res, 200, message(1), RL);
    });
    let asked = 0;
    const sent = await client.sendMessage(BOARD, { content: 'x' }, { admit: () => void asked++ });
    expect(sent).toMatchObject({ seq: 1 });
    expect(asked).toBe(2);
    expect(server.received).toHaveLength(2);
  });

  it('cancels the call with its own error when it throws, sends nothing, and frees the slot', async () => {
    const { server, client } = await start((_req, res) => sendJson(res, 200, message(1), RL));
    const refusal = new Error('no longer ours');
    const err = await client
      .sendMessage(
        BOARD,
        { content: 'x' },
        {
          admit: () => {
            throw refusal;
          },
        },
      )
      .catch((e: unknown) => e);
    expect(err).toBe(refusal);
    expect(server.received).toHaveLength(0);
    await expect(client.sendMessage(BOARD, { content: 'y' })).resolves.toMatchObject({ seq: 1 });
    expect(server.received).toHaveLength(1);
  });

  it('stops a retry when it throws on the second attempt', async () => {
    const { server, client } = await start((_req, res) =>
      sendJson(res, 503, { error: { code: 'unavailable', message: 'busy' } }, RL),
    );
    let asked = 0;
    const refusal = new Error('lost');
    const admit = () => {
      if (asked++ > 0) throw refusal;
    };
    await expect(client.sendMessage(BOARD, { content: 'x' }, { admit })).rejects.toBe(refusal);
    expect(server.received).toHaveLength(1);
  });
});
