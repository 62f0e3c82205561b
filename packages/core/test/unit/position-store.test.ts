import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilePositionStore, MemoryPositionStore, type Position } from '@boardbot/core';
import { silentLogger } from '@boardbot/protocol';
import { afterEach, describe, expect, it } from 'vitest';

const key = { apiUrl: 'http://127.0.0.1:8787/api/v1', appId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' };
const position = (eventId: string, seq = 3): Position => ({ eventId, boards: { board: seq }, savedAt: 1_700_000 });

const dirs: string[] = [];
function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'boardbot-position-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A logger that keeps its warnings. */
function warnings() {
  const seen: { obj: Record<string, unknown>; msg: string }[] = [];
  const log = {
    ...silentLogger,
    warn: (obj: Record<string, unknown>, msg: string) => seen.push({ obj, msg }),
    child: () => log,
  };
  return { log: log as unknown as typeof silentLogger, seen };
}

describe('FilePositionStore', () => {
  it('saves and loads a position per API URL and app, under <stateDir>/positions', async () => {
    const dir = stateDir();
    const store = new FilePositionStore(dir);
    expect(await store.load(key)).toBeUndefined();
    await store.save(key, position('41'));
    await store.save(key, position('42'));
    expect(await store.load(key)).toEqual(position('42'));
    expect(store.fileOf(key).startsWith(join(dir, 'positions'))).toBe(true);
    expect(await store.load({ ...key, apiUrl: 'http://other/api/v1' })).toBeUndefined();
    expect(await new FilePositionStore(dir).load(key)).toEqual(position('42'));
  });

  it('falls back to the previous file, and says so, when the current one is torn', async () => {
    const { log, seen } = warnings();
    const store = new FilePositionStore(stateDir(), log);
    await store.save(key, position('41'));
    await store.save(key, position('42'));
    const file = store.fileOf(key);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, text.length / 2));
    expect(await store.load(key)).toEqual(position('41'));
    expect(seen.map((w) => w.msg)).toEqual([
      expect.stringContaining('ignoring a damaged position file: not JSON'),
      'resuming from the previous position file',
    ]);
  });

  it('refuses a file whose content was changed (checksum) and starts without a position', async () => {
    const { log, seen } = warnings();
    const store = new FilePositionStore(stateDir(), log);
    await store.save(key, position('42'));
    const file = store.fileOf(key);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"42"', '"4200"'));
    expect(await store.load(key)).toBeUndefined();
    expect(seen[0]?.msg).toContain('checksum mismatch');
  });

  it('leaves no temporary file behind', async () => {
    const store = new FilePositionStore(stateDir());
    await store.save(key, position('1'));
    await store.save(key, position('2'));
    const file = store.fileOf(key);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}.prev`)).toBe(true);
    expect(existsSync(`${file}.tmp-${process.pid}`)).toBe(false);
  });
});

describe('FilePositionStore after a killed save', () => {
  it('removes the temporary files a gone process (or its own earlier life) left, and keeps a live one', async () => {
    const dir = stateDir();
    const store = new FilePositionStore(dir);
    await store.save(key, position('41'));
    const file = store.fileOf(key);
    // A process killed during a save leaves its temporary file; pid 2^31-1 runs nowhere.
    const gone = `${file}.tmp-2147483647`;
    // In a container the bot has the same pid at every start.
    const ownPid = `${file}.tmp-${process.pid}`;
    // This test's parent process runs: a save of it may be under way.
    const live = `${file}.tmp-${process.ppid}`;
    const otherApp = `${store.fileOf({ ...key, appId: 'other-app' })}.tmp-2147483647`;
    for (const f of [gone, ownPid, live, otherApp]) writeFileSync(f, '{"torn');
    expect(await store.load(key)).toEqual(position('41'));
    expect([gone, ownPid, live, otherApp].map((f) => existsSync(f))).toEqual([false, false, true, true]);
  });
});

describe('MemoryPositionStore', () => {
  it('keeps a copy, so later changes of the saved object do not leak in', async () => {
    const store = new MemoryPositionStore();
    const p = position('7');
    await store.save(key, p);
    p.boards.board = 99;
    expect(await store.load(key)).toEqual(position('7'));
  });
});
