import { type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, it } from 'vitest';
import { buildEmulator, serveInChild, stopChildren } from './lib/child-server.js';
import { percentile } from './lib/measure.js';
import { record } from './lib/record.js';

// One event fanned out to 500 open gateway streams: delivery latency from the moment the send is
// issued to the moment each stream has the frame. The emulator runs in its own process; the 500
// clients and the sender share this one. The baseline is a bare Node server writing the same size of
// frame to 500 open responses, measured the same way in the same run.

const STREAMS = 500;
const EVENTS = 10;

const EMULATOR = `
  import { createEmulator } from './packages/emulator/dist/index.js';
  const emu = await createEmulator({ db: ':memory:', logger: false, rateLimit: { requests: 1e9 }, limits: { gatewayStreams: ${STREAMS} } });
  const { url } = await emu.listen({ port: 0 });
  console.log(JSON.stringify({ url }));`;

// The same frame size as a message.create of the emulator (~450 bytes), written to every open stream.
const BARE = `
  import { createServer } from 'node:http';
  const streams = new Set();
  let id = 0;
  const data = JSON.stringify({ type: 'message.create', message: { id: '0b7c5c6e-2f0a-4d7e-9a40-8f5d0c1e2b3a', board_id: '0b7c5c6e-2f0a-4d7e-9a40-8f5d0c1e2b3b', author: '0b7c5c6e-2f0a-4d7e-9a40-8f5d0c1e2b3c', kind: 'default', content: 'fan-out', media: null, embeds: null, webhook_name: null, reply_to: null, seq: 1, created_at: '2026-11-21T10:00:00.000Z', edited_at: null, deleted_at: null, interaction: null } });
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.socket.setNoDelay(true);
      res.write('retry: 1000\\n\\nid: 0\\nevent: ready\\ndata: {}\\n\\n');
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    req.resume();
    req.on('end', () => {
      const frame = 'id: ' + (++id) + '\\nevent: message.create\\ndata: ' + data + '\\n\\n';
      for (const s of streams) s.write(frame);
      res.end('{}');
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port })));`;

interface Stream {
  res: IncomingMessage;
  onEvent: (() => void) | undefined;
}

function openStream(url: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: 'Bearer dev-token' }, agent: false }, (res) => {
      const s: Stream = { res, onEvent: undefined };
      let ready = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!ready && chunk.includes('event: ready')) {
          ready = true;
          resolve(s);
        }
        if (chunk.includes('event: message.create')) s.onEvent?.();
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Delivery latencies (ms) of `EVENTS` events, each to every stream. */
async function fanOut(streams: Stream[], send: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let e = 0; e < EVENTS + 5; e++) {
    let left = streams.length;
    const t0 = performance.now();
    const all = new Promise<void>((resolve) => {
      for (const s of streams) {
        s.onEvent = () => {
          s.onEvent = undefined;
          if (e >= 5) samples.push(performance.now() - t0);
          if (--left === 0) resolve();
        };
      }
    });
    await send();
    await all;
    await new Promise((r) => setTimeout(r, 20));
  }
  return samples;
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<void> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await r.arrayBuffer();
}

beforeAll(buildEmulator, 120_000);
afterAll(stopChildren);

it('delivers one event to 500 gateway streams with a p99 within 1.1x of a bare SSE server', async () => {
  const bare = (await serveInChild(BARE)).url;
  const emu = (await serveInChild(EMULATOR)).url;
  const auth = { authorization: 'Bearer dev-token' };
  const board = (
    (await (await fetch(`${emu}/api/v1/boards`, { headers: auth })).json()) as { boards: { id: string }[] }
  ).boards[0]?.id;
  const bareStreams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(`${bare}/stream`)));
  const streams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(`${emu}/api/v1/gateway`)));
  const body = JSON.stringify({ content: 'fan-out' });
  // Interleaved rounds: the machine is shared, so both see the same conditions.
  const baseline: number[] = [];
  const samples: number[] = [];
  for (let round = 0; round < 4; round++) {
    baseline.push(...(await fanOut(bareStreams, () => post(`${bare}/send`, '{}', {}))));
    samples.push(...(await fanOut(streams, () => post(`${emu}/api/v1/boards/${board}/messages`, body, auth))));
  }
  for (const s of [...bareStreams, ...streams]) s.res.destroy();

  const b99 = percentile(baseline, 99);
  record(
    {
      bench: 'emulator: fan-out to 500 streams',
      subject: 'bare Node SSE server, p99 (baseline)',
      value: b99,
      unit: 'ms',
      ratio: 1,
      note: `p50 ${percentile(baseline, 50).toFixed(1)} ms; 4 interleaved rounds of ${EVENTS} events × ${STREAMS} streams`,
    },
    {
      bench: 'emulator: fan-out to 500 streams',
      subject: 'send → every gateway stream, p99',
      value: percentile(samples, 99),
      unit: 'ms',
      ratio: percentile(samples, 99) / b99,
      note: `p50 ${percentile(samples, 50).toFixed(1)} ms; target p99 ≤ 1.1x of the bare server`,
    },
  );
}, 180_000);
