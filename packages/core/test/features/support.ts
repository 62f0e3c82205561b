import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Bot,
  type BotOptions,
  createBot,
  MemoryPositionStore,
  type Position,
  type PositionKey,
  type PositionStore,
} from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { silentLogger } from '@boardbot/protocol';
import type { TestPlatform } from '@boardbot/testing';

/** A fresh state directory under the system's temp dir; `remove()` deletes it. */
export async function stateDir(): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'boardbot-features-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/**
 * Another instance of the bot under test on the same platform (a replica, or the process that
 * replaces it after a restart): the same app, its own gateway connection and its own runtime.
 *
 * @param platform - the test platform
 * @param options - the instance's handlers and stores
 */
export function anotherInstance(platform: TestPlatform, options: Omit<BotOptions, 'token'>): Bot {
  return createBot({
    token: platform.token,
    apiUrl: platform.urls.apiUrl,
    logger: silentLogger,
    handleSignals: false,
    commandSync: 'off',
    position: new MemoryPositionStore(),
    ...options,
  });
}

/** Waits until `check` holds, polling the state it reads (no fixed sleep before asserting). */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A promise and its resolver: a handler waits on it, the test resolves it. */
export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

/** A {@link Deferred} (Node 20 has no `Promise.withResolvers`). */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * The resume point, unchanged while `held`: the next instance handles again what came after it, as
 * after a crash between two saves.
 */
export class HeldPositions implements PositionStore {
  readonly description = 'memory, held';
  held = false;
  private readonly inner = new MemoryPositionStore();
  private readonly waiters: Array<(p: Position) => boolean> = [];
  private last: Position | undefined;

  load(key: PositionKey): Promise<Position | undefined> {
    return this.inner.load(key);
  }

  async save(key: PositionKey, position: Position): Promise<void> {
    if (!this.held) await this.inner.save(key, position);
    this.last = position;
    for (const waiter of [...this.waiters]) if (waiter(position)) this.waiters.splice(this.waiters.indexOf(waiter), 1);
  }

  /** Settles once a save (the last one made, or a later one) covers `message` and its board's earlier ones. */
  passed(message: Message): Promise<void> {
    if ((this.last?.boards[message.board_id] ?? 0) >= message.seq) return Promise.resolve();
    return this.handled(message);
  }

  /** Settles once a bot saves (held or not) that it handled `message` and its board's earlier ones. */
  handled(message: Message): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push((p) => {
        if ((p.boards[message.board_id] ?? 0) < message.seq) return false;
        resolve();
        return true;
      });
    });
  }
}
