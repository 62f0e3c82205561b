import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, it } from 'vitest';
import { buildEmulator, serveInChild, stopChildren } from './lib/child-server.js';
import { record } from './lib/record.js';

// Sends per second over HTTP on loopback. The server runs in its own process and the load comes from
// this one through undici with pipelining, so the generator does not take the server's event loop.
// The ceiling is a bare Fastify route that parses the same JSON body and answers a fixed JSON body,
// driven by the same generator in the same run.

const dir = mkdtempSync(join(tmpdir(), 'boardbot-bench-send-'));

const EMULATOR = (db: string) => `
  import { createEmulator } from './packages/emulator/dist/index.js';
  const emu = await createEmulator({ db: ${JSON.stringify(db)}, logger: false, rateLimit: { requests: 1e9 } });
  const { url } = await emu.listen({ port: 0 });
  console.log(JSON.stringify({ url }));`;

const BARE = `
  import Fastify from 'fastify';
  const app = Fastify();
  const body = { id: '0b7c5c6e-2f0a-4d7e-9a40-8f5d0c1e2b3a', board_id: '0b7c5c6e-2f0a-4d7e-9a40-8f5d0c1e2b3b', content: 'hello', seq: 1 };
  app.post('/api/v1/boards/:boardId/messages', async () => body);
  await app.listen({ host: '127.0.0.1', port: 0 });
  console.log(JSON.stringify({ url: 'http://127.0.0.1:' + app.server.address().port }));`;

/**
 * Requests per second for `ms`: 64 requests in flight over 8 pipelined connections (`idempotent`
 * lets undici pipeline the POSTs; the load is safe to pipeline).
 */
async function rate(origin: string, path: string, ms: number): Promise<{ rps: number; failed: number }> {
  const pool = new Pool(origin, { connections: 8, pipelining: 8 });
  const body = JSON.stringify({ content: 'You rolled 17' });
  const headers = { authorization: 'Bearer dev-token', 'content-type': 'application/json' };
  let ok = 0;
  let failed = 0;
  const startAt = performance.now() + 200;
  const stopAt = startAt + ms;
  const worker = async () => {
    while (performance.now() < stopAt) {
      const r = await pool.request({ method: 'POST', path, headers, body, idempotent: true });
      await r.body.dump();
      if (performance.now() < startAt) continue;
      if (r.statusCode === 200) ok++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  await pool.close();
  return { rps: (ok * 1000) / ms, failed };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

beforeAll(buildEmulator, 120_000);
afterAll(() => {
  stopChildren();
  rmSync(dir, { recursive: true, force: true });
});

it('sends at least 5,000 messages/s and a third of a bare Fastify route', async () => {
  const bare = (await serveInChild(BARE)).url;
  const emu = (await serveInChild(EMULATOR(join(dir, 'send.db')))).url;
  const boards = (await (
    await fetch(`${emu}/api/v1/boards`, { headers: { authorization: 'Bearer dev-token' } })
  ).json()) as {
    boards: { id: string }[];
  };
  const sendPath = `/api/v1/boards/${boards.boards[0]?.id}/messages`;
  // Interleaved rounds, median of each: the machine is shared, so both see the same conditions.
  const ceilings: number[] = [];
  const rates: number[] = [];
  for (let round = 0; round < 7; round++) {
    ceilings.push((await rate(bare, '/api/v1/boards/x/messages', 2000)).rps);
    const sends = await rate(emu, sendPath, 2000);
    if (sends.failed > 0) throw new Error(`${sends.failed} sends failed`);
    rates.push(sends.rps);
  }
  const ceiling = { rps: median(ceilings) };
  const sends = { rps: median(rates) };
  record(
    {
      bench: 'emulator: send',
      subject: 'bare Fastify route (ceiling)',
      value: ceiling.rps,
      unit: 'req/s',
      ratio: 1,
      note: 'median of 7 interleaved rounds',
    },
    {
      bench: 'emulator: send',
      subject: 'POST /boards/{id}/messages (file db, WAL)',
      value: sends.rps,
      unit: 'sends/s',
      ratio: sends.rps / ceiling.rps,
      note: 'median of 7 interleaved rounds; target ≥ 5,000/s and ≥ 0.33x',
    },
  );
}, 120_000);
