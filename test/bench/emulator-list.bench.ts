import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator } from '@boardbot/emulator';
import type { Message } from '@boardbot/protocol';
import { Client } from 'undici';
import { afterAll, it } from 'vitest';
import { percentile } from './lib/measure.js';
import { record } from './lib/record.js';

// Latency of a page of the message list (limit 50) on boards of 1k, 100k and 1M messages: keyset
// paging on (board_id, seq) must keep it flat. The baseline is the 1k board in the same run. Boards
// are filled straight through the store (the figure is about reading, not about filling); the board's
// seq counter is read from the data when first needed, so it accounts for them.

const dir = mkdtempSync(join(tmpdir(), 'boardbot-bench-list-'));
let emu: Emulator | undefined;
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

function fill(e: Emulator, boardId: string, author: string, count: number): void {
  const { store } = e.platform;
  const t0 = Date.parse('2026-11-21T10:00:00.000Z');
  const batch = 20_000;
  for (let start = 1; start <= count; start += batch) {
    store.transaction(() => {
      for (let seq = start; seq < start + batch && seq <= count; seq++) {
        const message: Message = {
          id: e.platform.newId(),
          board_id: boardId,
          author,
          kind: 'default',
          content: `message number ${seq}`,
          media: null,
          embeds: null,
          webhook_name: null,
          reply_to: null,
          seq,
          created_at: new Date(t0 + seq).toISOString(),
          edited_at: null,
          deleted_at: null,
          interaction: null,
        };
        store.messages.insert(message, JSON.stringify(message));
      }
    });
  }
}

async function latencies(client: Client, path: string, size: number, samples: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples + 100; i++) {
    // Half the pages are the newest, half start at a random depth of the board.
    const before = i % 2 === 0 ? '' : `&before=${1 + Math.floor(Math.random() * size)}`;
    const t = performance.now();
    const r = await client.request({
      method: 'GET',
      path: `${path}?limit=50${before}`,
      headers: { authorization: 'Bearer dev-token' },
    });
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(`list answered ${r.statusCode}`);
    if (i === 0 && (JSON.parse(text) as { messages: unknown[] }).messages.length !== 50) throw new Error('expected 50');
    if (i >= 100) out.push(performance.now() - t);
  }
  return out;
}

it('keeps list latency flat from 1k to 1M messages', async () => {
  emu = await createEmulator({ db: join(dir, 'list.db'), logger: false, rateLimit: { requests: 1e9 } });
  const sizes = [1_000, 100_000, 1_000_000];
  const admin = { authorization: `Bearer ${emu.adminKey}`, 'content-type': 'application/json' };
  const appId = emu.platform.store.apps.byName('dev-bot')?.id as string;
  const author = emu.platform.store.apps.byName('dev-bot')?.bot_user_id as string;
  const boards: string[] = [];
  for (const size of sizes) {
    const board = (
      await emu.app.inject({
        method: 'POST',
        url: '/_emulator/v1/boards',
        headers: admin,
        payload: { name: `b${size}` },
      })
    ).json().id;
    await emu.app.inject({ method: 'PUT', url: `/_emulator/v1/apps/${appId}/installs/${board}`, headers: admin });
    fill(emu, board, author, size);
    boards.push(board);
  }
  const { url } = await emu.listen({ port: 0 });
  const client = new Client(url);
  // Warm up every path (JIT, page cache) before measuring any board, so the first is not penalized.
  for (let i = 0; i < sizes.length; i++)
    await latencies(client, `/api/v1/boards/${boards[i]}/messages`, sizes[i] as number, 300);
  const results = [];
  for (let i = 0; i < sizes.length; i++) {
    const l = await latencies(client, `/api/v1/boards/${boards[i]}/messages`, sizes[i] as number, 2000);
    results.push({ size: sizes[i] as number, p50: percentile(l, 50), p99: percentile(l, 99) });
  }
  await client.close();
  const base = results[0] as { p50: number; p99: number };
  record(
    ...results.flatMap((r) => [
      {
        bench: 'emulator: list page (limit 50)',
        subject: `${r.size.toLocaleString('en-US')} messages, p50`,
        value: r.p50,
        unit: 'ms',
        ratio: r.p50 / base.p50,
        note: 'ratio vs the 1k board; half newest pages, half random depth',
      },
      {
        bench: 'emulator: list page (limit 50)',
        subject: `${r.size.toLocaleString('en-US')} messages, p99`,
        value: r.p99,
        unit: 'ms',
        ratio: r.p99 / base.p99,
      },
    ]),
  );
}, 300_000);
