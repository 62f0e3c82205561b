import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmulator } from '@boardbot/emulator';
import type { Message } from '@boardbot/protocol';
import { buildProjects } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./fixtures/child-emulator.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'boardbot-durability-'));

// The child runs the built package; build it (a no-op when `tsc -b` already ran, as in `npm test`).
beforeAll(() => buildProjects('packages/emulator'), 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startChild(db: string): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, db], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout?.on('data', (d) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ proc, url: (JSON.parse(line) as { url: string }).url });
    });
    proc.on('exit', (code) => reject(new Error(`child exited with ${code} before listening`)));
  });
}

const auth = { authorization: 'Bearer dev-token', 'content-type': 'application/json' };

describe('durability', () => {
  it('keeps every acknowledged message, with its seq, when the process is killed with SIGKILL mid-burst', async () => {
    const db = join(dir, 'kill.db');
    const first = await startChild(db);
    const boards = (await (await fetch(`${first.url}/api/v1/boards`, { headers: auth })).json()) as {
      boards: { id: string }[];
    };
    const board = boards.boards[0]?.id as string;
    const acknowledged: Message[] = [];
    let killed = false;
    const exited = new Promise((resolve) => first.proc.on('exit', resolve));
    // Eight concurrent senders; the process is killed once 400 sends were acknowledged, with sends in flight.
    const sender = async (n: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const r = await fetch(`${first.url}/api/v1/boards/${board}/messages`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ content: `sender ${n} message ${i}` }),
          });
          if (r.status !== 200) continue;
          const m = (await r.json()) as Message;
          acknowledged.push(m);
          if (acknowledged.length >= 400 && !killed) {
            killed = true;
            first.proc.kill('SIGKILL');
          }
        } catch {
          return; // the connection died with the process
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, n) => sender(n)));
    await exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(400);

    const second = await startChild(db);
    try {
      const stored = new Map<string, Message>();
      let before: number | undefined;
      for (;;) {
        const q = before === undefined ? '' : `&before=${before}`;
        const r = await fetch(`${second.url}/api/v1/boards/${board}/messages?limit=100${q}`, { headers: auth });
        const page = ((await r.json()) as { messages: Message[] }).messages;
        if (page.length === 0) break;
        for (const m of page) stored.set(m.id, m);
        before = page[page.length - 1]?.seq;
      }
      for (const m of acknowledged) expect(stored.get(m.id)).toEqual(m);
      // Nothing half-written either: seqs run from 1 without a hole.
      const seqs = [...stored.values()].map((m) => m.seq).sort((a, b) => a - b);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    } finally {
      second.proc.kill('SIGTERM');
      await new Promise((resolve) => second.proc.on('exit', resolve));
    }
  }, 60_000);

  it('keeps seeded ids across restarts of a file database and applies a new dev token', async () => {
    const db = join(dir, 'nested', 'dir', 'restart.db');
    const a = await createEmulator({ db, logger: false });
    const before = (
      await a.app.inject({ method: 'GET', url: '/api/v1/app', headers: { authorization: 'Bearer dev-token' } })
    ).json();
    await a.close();
    const b = await createEmulator({ db, logger: false, devToken: 'new-token' });
    try {
      const old = await b.app.inject({
        method: 'GET',
        url: '/api/v1/app',
        headers: { authorization: 'Bearer dev-token' },
      });
      expect(old.statusCode).toBe(401);
      const now = await b.app.inject({
        method: 'GET',
        url: '/api/v1/app',
        headers: { authorization: 'Bearer new-token' },
      });
      expect(now.json()).toEqual(before);
    } finally {
      await b.close();
    }
  });

  it('refuses a database written by a newer emulator, with a clear error', async () => {
    const db = join(dir, 'future.db');
    const a = await createEmulator({ db, logger: false });
    a.platform.store.db.pragma('user_version = 99');
    await a.close();
    await expect(createEmulator({ db, logger: false })).rejects.toMatchObject({
      code: 'BOARDBOT_EMULATOR_STORAGE',
      message: expect.stringContaining('newer'),
    });
  });
});
