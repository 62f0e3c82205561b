import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilePositionStore, MemoryPositionStore, type Position, type PositionKey } from '@boardbot/core';
import { PositionKeeper, Progress } from '@boardbot/core/internal';
import { silentLogger } from '@boardbot/protocol';
import { TestClock } from '@boardbot/testing/clock';
import { describe, expect, it } from 'vitest';
import { captureLogs } from '../e2e/support/logs.js';

const key = { apiUrl: 'http://x/api/v1', appId: 'app' };

/** A store that counts saves and lets the test wait for the next one. */
class CountingStore extends MemoryPositionStore {
  saves: Position[] = [];
  private waiting: (() => void)[] = [];
  override async save(k: PositionKey, p: Position): Promise<void> {
    await super.save(k, p);
    this.saves.push(p);
    for (const w of this.waiting.splice(0)) w();
  }
  nextSave(): Promise<void> {
    return new Promise((r) => this.waiting.push(r));
  }
}

describe('PositionKeeper', () => {
  it('batches saves: many finished events within flushMs cost one save', async () => {
    const clock = new TestClock(0);
    const store = new CountingStore();
    const progress = new Progress(undefined);
    const keeper = new PositionKeeper(store, key, progress, { flushMs: 200, clock, log: silentLogger });
    for (let i = 1; i <= 50; i++) {
      progress.finish(progress.begin(String(i)));
      keeper.changed();
    }
    expect(clock.pending).toBe(1);
    const saved = store.nextSave();
    clock.advance(200);
    await saved;
    expect(store.saves.map((p) => p.eventId)).toEqual(['50']);
  });

  it('saves nothing when no mark moved, and the last mark on flush', async () => {
    const clock = new TestClock(0);
    const store = new CountingStore();
    const progress = new Progress({ eventId: '7', boards: {}, savedAt: 0 });
    const keeper = new PositionKeeper(store, key, progress, { flushMs: 200, clock, log: silentLogger });
    keeper.changed();
    await keeper.flush();
    expect(store.saves).toEqual([]);
    progress.finish(progress.begin('8'));
    await keeper.flush();
    expect((await store.load(key))?.eventId).toBe('8');
    keeper.stop();
    progress.finish(progress.begin('9'));
    keeper.changed();
    expect(clock.pending).toBe(0);
  });

  it('logs "could not save the resume point" at error when the state directory cannot be written, once, not per save', async () => {
    const root = mkdtempSync(join(tmpdir(), 'keeper-'));
    try {
      // A file where the state directory should be: no directory can be made under it (even as root).
      writeFileSync(join(root, 'not-a-dir'), '');
      const store = new FilePositionStore(join(root, 'not-a-dir', 'state'));
      const logs = captureLogs();
      const progress = new Progress(undefined);
      const keeper = new PositionKeeper(store, key, progress, {
        flushMs: 200,
        clock: new TestClock(0),
        log: logs.logger,
      });
      progress.finish(progress.begin('1'));
      await keeper.flush();
      progress.finish(progress.begin('2'));
      await keeper.flush();
      keeper.stop();
      const failed = logs.lines().filter((l) => l.msg === 'could not save the resume point');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ level: 50, store: store.description });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
