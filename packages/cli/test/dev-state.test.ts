import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { devStatePath, readDevState, writeDevState } from '../src/dev/dev-state.js';

// .boardbot/dev.json holds the emulator's admin key: it is its owner's only, always.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'boardbot-dev-state-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;
const state = { controlUrl: 'http://127.0.0.1:8787/_emulator/v1', adminKey: 'k'.repeat(32), pid: 42 };

describe('the dev state file', () => {
  it('is written with mode 0600, even under a permissive umask', () => {
    const umask = process.umask(0);
    try {
      writeDevState(dir, state);
    } finally {
      process.umask(umask);
    }
    expect(mode(devStatePath(dir))).toBe(0o600);
    expect(readDevState(dir)).toEqual(state);
  });

  // Regression: `mode` only applied when the file was created, so a file left world-readable kept
  // its mode and received the new admin key.
  it('tightens a file that already existed with a looser mode', () => {
    mkdirSync(join(dir, '.boardbot'));
    writeFileSync(devStatePath(dir), '{}', { mode: 0o644 });
    expect(mode(devStatePath(dir))).not.toBe(0o600);
    writeDevState(dir, state);
    expect(mode(devStatePath(dir))).toBe(0o600);
    expect(readDevState(dir)).toEqual(state);
  });
});
