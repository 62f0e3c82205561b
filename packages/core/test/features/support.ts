import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bot, type BotOptions, createBot, MemoryPositionStore } from '@boardbot/core';
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
