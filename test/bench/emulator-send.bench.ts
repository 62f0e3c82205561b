import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, it } from 'vitest';
import { buildEmulator, type ChildServer, cpuSecondsOf, serveInChild, stopChildren } from './lib/child-server.js';
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
 * lets undici pipeline the POSTs; the load is safe to pipeline). Also the server's CPU per request:
 * its process's CPU time over the whole run (warm-up included) divided by every request it answered.
 */
async function rate(
  server: ChildServer,
  path: string,
  ms: number,
): Promise<{ rps: number; failed: number; cpuUs: number }> {
  const pool = new Pool(server.url, { connections: 8, pipelining: 8 });
  const body = JSON.stringify({ content: 'You rolled 17' });
  const headers = { authorization: 'Bearer dev-token', 'content-type': 'application/json' };
  let ok = 0;
  let failed = 0;
  let answered = 0;
  const cpuBefore = cpuSecondsOf(server.pid);
  const startAt = performance.now() + 200;
  const stopAt = startAt + ms;
  const worker = async () => {
    while (performance.now() < stopAt) {
      const r = await pool.request({ method: 'POST', path, headers, body, idempotent: true });
      await r.body.dump();
      answered++;
      if (performance.now() < startAt) continue;
      if (r.statusCode === 200) ok++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  const cpuUs = ((cpuSecondsOf(server.pid) - cpuBefore) * 1e6) / answered;
  await pool.close();
  return { rps: (ok * 1000) / ms, failed, cpuUs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

beforeAll(buildEmulator, 120_000);
afterAll(async () => {
  await stopChildren();
  rmSync(dir, { recursive: true, force: true });
});

it('sends at half the rate of a bare Fastify route, in throughput or server CPU per request', async () => {
  const bare = await serveInChild(BARE);
  const emulator = await serveInChild(EMULATOR(join(dir, 'send.db')));
  const boards = (await (
    await fetch(`${emulator.url}/api/v1/boards`, { headers: { authorization: 'Bearer dev-token' } })
  ).json()) as {
    boards: { id: string }[];
  };
  const sendPath = `/api/v1/boards/${boards.boards[0]?.id}/messages`;
  // Interleaved rounds, median of each: the machine is shared, so both see the same conditions.
  const ceilings: number[] = [];
  const rates: number[] = [];
  const bareCpu: number[] = [];
  const sendCpu: number[] = [];
  for (let round = 0; round < 7; round++) {
    const b = await rate(bare, '/api/v1/boards/x/messages', 2000);
    ceilings.push(b.rps);
    bareCpu.push(b.cpuUs);
    const sends = await rate(emulator, sendPath, 2000);
    if (sends.failed > 0) throw new Error(`${sends.failed} sends failed`);
    rates.push(sends.rps);
    sendCpu.push(sends.cpuUs);
  }
  const spread = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;
  const ceiling = median(ceilings);
  const sends = median(rates);
  const cpu = { bare: median(bareCpu), send: median(sendCpu) };
  record(
    {
      bench: 'emulator: send',
      subject: 'bare Fastify route (ceiling)',
      value: ceiling,
      unit: 'req/s',
      ratio: 1,
      note: `median of 7 interleaved rounds (${spread(ceilings)})`,
    },
    {
      bench: 'emulator: send',
      subject: 'POST /boards/{id}/messages (file db, WAL)',
      value: sends,
      unit: 'sends/s',
      ratio: sends / ceiling,
      note: `median of 7 interleaved rounds (${spread(rates)}); target ≥ 0.5x`,
    },
    {
      bench: 'emulator: send',
      subject: 'bare Fastify route, server CPU per request (ceiling)',
      value: cpu.bare,
      unit: 'µs',
      ratio: 1,
      note: `median of 7 rounds (${spread(bareCpu)})`,
    },
    {
      bench: 'emulator: send',
      subject: 'POST /boards/{id}/messages, server CPU per send',
      value: cpu.send,
      unit: 'µs',
      // As a ratio of throughputs: the bare route's CPU per request over the send's.
      ratio: cpu.bare / cpu.send,
      note: `median of 7 rounds (${spread(sendCpu)}); ratio is bare ÷ send; target ≥ 0.5x`,
    },
  );
}, 120_000);
