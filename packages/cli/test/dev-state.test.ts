import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  chooseDev,
  clearDevState,
  type DevState,
  devStatePath,
  ensureStateDir,
  readDevStates,
  siblingDatabase,
  stateDir,
  tightenDatabase,
  writeDevState,
} from '@boardbot/cli/internal';
import { tempDir } from '@boardbot/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// .boardbot/ holds the emulator's database and, per running `boardbot dev`, a record with its admin
// key: they are their owner's only, always, and each instance has its own record.

let dir: string;
let remove: () => void;
beforeEach(() => {
  ({ dir, remove } = tempDir('boardbot-dev-state-'));
});
afterEach(() => remove());

const mode = (path: string) => statSync(path).mode & 0o777;
const state = (port: number, pid = process.pid): DevState => ({
  controlUrl: `http://127.0.0.1:${port}/_emulator/v1`,
  adminKey: 'k'.repeat(32),
  pid,
  db: '.boardbot/emulator.db',
});

function underUmask<T>(umask: number, work: () => T): T {
  const previous = process.umask(umask);
  try {
    return work();
  } finally {
    process.umask(previous);
  }
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}

describe('the dev records', () => {
  it('are written with mode 0600 in a 0700 .boardbot/, under umask 022 and under a permissive umask', () => {
    for (const umask of [0o022, 0]) {
      const project = join(dir, `umask-${umask}`);
      mkdirSync(project);
      const path = underUmask(umask, () => writeDevState(project, state(8787)));
      expect(mode(path)).toBe(0o600);
      expect(mode(stateDir(project))).toBe(0o700);
      expect(readDevStates(project)).toEqual([state(8787)]);
    }
  });

  // Regression: `mode` only applies when a file or directory is created, so one an earlier version
  // left wider kept its mode.
  it('tighten a .boardbot/ and a record that already existed with looser modes', () => {
    mkdirSync(stateDir(dir), { mode: 0o755 });
    chmodSync(stateDir(dir), 0o755);
    writeFileSync(devStatePath(dir, state(8787)), '{}', { mode: 0o644 });
    chmodSync(devStatePath(dir, state(8787)), 0o644);
    writeDevState(dir, state(8787));
    expect(mode(stateDir(dir))).toBe(0o700);
    expect(mode(devStatePath(dir, state(8787)))).toBe(0o600);
    expect(ensureStateDir(dir)).toBe(stateDir(dir));
  });

  it('are one per instance: each stop removes only its own, and a dead process’s record is cleaned away', () => {
    writeDevState(dir, state(8787));
    writeDevState(dir, state(8788));
    const dead = state(8789, deadPid());
    writeDevState(dir, dead);
    expect(readDevStates(dir)).toEqual([state(8787), state(8788)]);
    expect(existsSync(devStatePath(dir, dead))).toBe(false);

    clearDevState(dir, state(8787));
    expect(readDevStates(dir)).toEqual([state(8788)]);
    expect(readdirSync(stateDir(dir))).toEqual([`dev-${process.pid}-8788.json`]);
  });
});

describe('choosing the dev that `boardbot invoke` talks to', () => {
  const a = state(8787, 100);
  const b = state(8790, 200);

  it('takes the only one, or none', () => {
    expect(chooseDev([a], undefined)).toBe(a);
    expect(chooseDev([], undefined)).toBeUndefined();
  });

  it('refuses several without --dev, listing them and saying how to choose', () => {
    expect(() => chooseDev([a, b], undefined)).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_CLI_SEVERAL_DEV',
        message: expect.stringMatching(
          /pid 100 on port 8787 \(database \.boardbot\/emulator\.db\); pid 200 on port 8790.*--dev <port or pid>: add `--dev 8787`, for example/,
        ),
      }),
    );
  });

  it('takes the one --dev names by port or by pid, and refuses a --dev that names none', () => {
    expect(chooseDev([a, b], 8790)).toBe(b);
    expect(chooseDev([a, b], 100)).toBe(a);
    expect(() => chooseDev([a, b], 9999)).toThrow(
      expect.objectContaining({
        code: 'BOARDBOT_CLI_CONFIG',
        message: expect.stringContaining('pid 200 on port 8790'),
      }),
    );
  });
});

describe('the dev database', () => {
  it('is tightened to 0600 with its WAL files when an earlier version left them wider', () => {
    const db = join(dir, 'emulator.db');
    for (const file of [db, `${db}-wal`]) {
      writeFileSync(file, '');
      chmodSync(file, 0o644);
    }
    tightenDatabase(db);
    expect([mode(db), mode(`${db}-wal`)]).toEqual([0o600, 0o600]);
    expect(existsSync(`${db}-shm`)).toBe(false);
  });

  it('has a sibling to suggest when it is held: the next number', () => {
    expect(siblingDatabase('.boardbot/emulator.db')).toBe('.boardbot/emulator-2.db');
    expect(siblingDatabase('.boardbot/emulator-2.db')).toBe('.boardbot/emulator-3.db');
    expect(siblingDatabase('data/bot')).toBe('data/bot-2');
  });
});
