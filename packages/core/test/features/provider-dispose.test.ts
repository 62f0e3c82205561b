import { Command, Injectable } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';

/** What the providers of one test did, in order. */
const closed: string[] = [];

/** A database: opened when built, closed by its dispose hook. */
class Db {
  open = true;
  dispose(): void {
    this.open = false;
    closed.push('Db');
  }
}

/** Built on the database, so it must go first: its async dispose hook still writes to it. */
@Injectable()
class Cache {
  constructor(readonly db: Db) {}
  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.resolve();
    closed.push(`Cache (db open: ${this.db.open})`);
  }
}

/** A provider whose dispose fails: logged, and the others still run. */
@Injectable()
class Broken {
  constructor(readonly cache: Cache) {}
  dispose(): never {
    closed.push('Broken');
    throw new Error('socket already gone');
  }
}

@Injectable()
@Command({ name: 'count', description: 'Counts' })
class Count {
  constructor(readonly broken: Broken) {}
  run() {
    return `open: ${this.broken.cache.db.open}`;
  }
}

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
  closed.length = 0;
});

describe("providers' dispose hook", () => {
  it('runs when the bot stops, last built first; one that throws is logged and the others still run', async () => {
    platform = await createTestPlatform({ handlers: [Count], providers: [Db, Cache, Broken] });
    expect((await platform.person('alice').invoke('count')).content).toBe('open: true');
    expect(closed).toEqual([]);
    await platform.bot.runtime.stop();
    // Broken was built last (it needs Cache, which needs Db): it goes first, and its failure stops nothing.
    expect(closed).toEqual(['Broken', 'Cache (db open: true)', 'Db']);
    expect(platform.logs.find({ level: 'error', msg: 'provider failed to dispose' })).toEqual([
      expect.objectContaining({ provider: 'Broken' }),
    ]);
  });

  it('leaves a value given with useValue to its giver', async () => {
    const given = new Db();
    platform = await createTestPlatform({
      handlers: [Count],
      providers: [{ provide: Db, useValue: given }, Cache, Broken],
    });
    await platform.bot.runtime.stop();
    expect(given.open).toBe(true);
    expect(closed).toEqual(['Broken', 'Cache (db open: true)']);
  });
});
