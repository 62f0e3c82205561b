import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  FilePositionStore,
  FileSessionStore,
  FORGET_EXPIRED_AFTER_MS,
  SESSION_SWEEP_INTERVAL_MS,
  type SessionValue,
} from '@boardbot/core';
import { recordingLogger, tempDir, until } from '@boardbot/test-support';
import { TestClock } from '@boardbot/testing/clock';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';

// docs/sessions.md, "Stores": the file store's state is private to its user, and it forgets what
// ended or expired, and what a crash left behind.

const root = tempDir('boardbot-file-store-');
afterAll(() => root.remove());
let n = 0;
/** A state directory not made yet, of its own. */
const fresh = () => join(root.dir, `state-${n++}`);
const modeOf = async (path: string) => ((await stat(path)).mode & 0o7777).toString(8);
const value = (expiresAt: number | null): SessionValue => ({ data: { n: 1 }, shape: 1, expiresAt, applied: [] });

describe('the state directory, under umask 022', () => {
  let umask = 0;
  beforeEach(() => {
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('is made 0700, its session and position files 0600', async () => {
    const state = fresh();
    await new FileSessionStore(state).write('k', 0, value(null));
    const positions = new FilePositionStore(state);
    const key = { apiUrl: 'http://127.0.0.1:1', appId: 'app' };
    await positions.save(key, { eventId: undefined, boards: {}, savedAt: 1 });
    await positions.save(key, { eventId: undefined, boards: {}, savedAt: 2 });
    expect(await modeOf(state)).toBe('700');
    for (const sub of ['sessions', 'positions']) {
      expect(await modeOf(join(state, sub))).toBe('700');
      for (const name of await readdir(join(state, sub)))
        expect(`${name} ${await modeOf(join(state, sub, name))}`).toBe(`${name} 600`);
    }
    expect(await readdir(join(state, 'positions'))).toHaveLength(2); // the file and its .prev
  });

  it('is tightened to 0700 when it exists readable by others', async () => {
    const state = fresh();
    await mkdir(join(state, 'sessions'), { recursive: true, mode: 0o755 });
    await chmod(state, 0o755);
    await new FileSessionStore(state).read('k');
    expect(await modeOf(state)).toBe('700');
    expect(await modeOf(join(state, 'sessions'))).toBe('700');
  });

  it('is warned about, and left as it is, when it is a shared (sticky) directory', async () => {
    const state = fresh();
    await mkdir(state, { mode: 0o777 });
    await chmod(state, 0o1777);
    const log = recordingLogger();
    await new FileSessionStore(state, { log }).read('k');
    expect(await modeOf(state)).toBe('1777');
    const warned = log.lines.filter((l) => l.level === 'warn');
    expect(warned.map((l) => l.msg)).toEqual([expect.stringContaining(`chmod 700 ${state}`)]);
  });
});

describe('a file session store that forgets', () => {
  const start = Date.parse('2026-03-02T09:00:00Z');

  it('removes the file of a deleted session', async () => {
    const state = fresh();
    const store = new FileSessionStore(state, { clock: new TestClock(start) });
    await store.write('k', 0, value(start + 1000));
    expect(await readdir(join(state, 'sessions'))).toHaveLength(1);
    expect(await store.write('k', 1, null)).toBe(true);
    expect(await readdir(join(state, 'sessions'))).toEqual([]);
    expect(await store.read('k')).toBeUndefined();
    expect(await store.write('k', 1, value(null))).toBe(false);
  });

  it('removes an expired session a day after it expired, when it is read', async () => {
    const state = fresh();
    // A clock whose timers never fire: the read alone removes it, not the sweep.
    let now = start;
    const clock = { now: () => now, setTimeout: () => 0, clearTimeout: () => {} };
    const store = new FileSessionStore(state, { clock });
    await store.write('k', 0, value(start + 1000));
    now += 1000 + FORGET_EXPIRED_AFTER_MS - 1;
    expect((await store.read('k'))?.version).toBe(1);
    now += 1;
    expect(await store.read('k')).toBeUndefined();
    expect(await readdir(join(state, 'sessions'))).toEqual([]);
    await store.close();
  });

  it('sweeps expired and ended sessions every hour on its clock, and stops at close()', async () => {
    const state = fresh();
    const clock = new TestClock(start);
    const store = new FileSessionStore(state, { clock });
    for (let i = 0; i < 5; i++) await store.write(`expiring-${i}`, 0, value(start + 60_000));
    await store.write('kept', 0, value(null));
    await store.write('later', 0, value(start + 3 * FORGET_EXPIRED_AFTER_MS));
    const files = () => readdir(join(state, 'sessions'));
    expect(await files()).toHaveLength(7);
    clock.advance(FORGET_EXPIRED_AFTER_MS + 60_000);
    // No read: the hourly sweep alone removes the five.
    await until(async () => (await files()).length === 2, 'the sweep removed the expired sessions', {
      timeoutMs: 10_000,
      intervalMs: 20,
    });
    expect((await store.read('kept'))?.version).toBe(1);
    expect((await store.read('later'))?.version).toBe(1);
    expect(clock.pending).toBe(1);
    await store.close();
    expect(clock.pending).toBe(0);
  });

  it('times its sweep with an unref’d timer, every SESSION_SWEEP_INTERVAL_MS', async () => {
    const timers: { ms: number; timer: NodeJS.Timeout }[] = [];
    const clock = {
      now: () => Date.now(),
      setTimeout: (fn: () => void, ms: number) => {
        const timer = setTimeout(fn, ms);
        timers.push({ ms, timer });
        return timer;
      },
      clearTimeout: (t: unknown) => clearTimeout(t as NodeJS.Timeout),
    };
    const store = new FileSessionStore(fresh(), { clock });
    await store.read('k');
    expect(timers.map((t) => [t.ms, t.timer.hasRef()])).toEqual([[SESSION_SWEEP_INTERVAL_MS, false]]);
    await store.close();
  });

  it('tries its start again at the next use when it failed', async () => {
    const state = fresh();
    await writeFile(state, 'not a directory');
    const store = new FileSessionStore(state);
    await expect(store.read('k')).rejects.toThrow();
    await rm(state);
    expect(await store.read('k')).toBeUndefined();
    await store.close();
  });

  it('removes at start the temporary files of writes a crash interrupted', async () => {
    const state = fresh();
    await mkdir(join(state, 'sessions'), { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const name = `${'a'.repeat(40)}.json`;
    for (const pid of [dead, process.pid, 1]) await writeFile(join(state, 'sessions', `${name}.tmp-${pid}`), '{');
    await new FileSessionStore(state).read('k');
    // A live process's (pid 1) may still be writing: left to it.
    expect(await readdir(join(state, 'sessions'))).toEqual([`${name}.tmp-1`]);
  });
});

describe('docs/sessions.md', () => {
  it('gives the sweep interval and the day an expired session is kept', async () => {
    const page = (await readFile(new URL('../../../../docs/sessions.md', import.meta.url), 'utf8')).replace(
      /\s+/g,
      ' ',
    );
    expect(SESSION_SWEEP_INTERVAL_MS).toBe(60 * 60 * 1000);
    expect(page).toContain('by a sweep every hour (`SESSION_SWEEP_INTERVAL_MS`)');
    expect(FORGET_EXPIRED_AFTER_MS).toBe(24 * 60 * 60 * 1000);
    expect(page).toContain('removed a day after it expired (`FORGET_EXPIRED_AFTER_MS`');
  });
});
