import { SessionConflictError } from '../errors.js';
import type { SessionStore } from './session-store.js';

const ATTEMPTS = 20;

/**
 * Reads a value of the store as `T`.
 * @param store - the bot's session store
 * @param key - its key
 * @param now - the bot's time (epoch ms): an expired value reads as none
 */
export async function readValue<T>(
  store: SessionStore,
  key: string,
  now: number,
): Promise<{ version: number; value?: T | undefined }> {
  const record = await store.read(key);
  if (!record) return { version: 0 };
  const { value } = record;
  const live = value !== null && (value.expiresAt === null || value.expiresAt > now);
  return { version: record.version, value: live ? (value.data as T) : undefined };
}

/**
 * Changes a value by compare-and-set, retried when another writer (replica) wrote first.
 * @param store - the bot's session store
 * @param key - its key
 * @param change - the new value from the current one; undefined writes nothing
 * @param expiresAt - when the written value expires (epoch ms)
 * @param now - the bot's clock
 * @returns what was written, or undefined when `change` wrote nothing
 */
export async function changeValue<T>(
  store: SessionStore,
  key: string,
  change: (current: T | undefined) => T | undefined,
  expiresAt: (next: T) => number,
  now: () => number,
): Promise<T | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { version, value } = await readValue<T>(store, key, now());
    const next = change(value);
    if (next === undefined) return undefined;
    const written = { data: next, shape: 1, expiresAt: expiresAt(next), applied: [] };
    if (await store.write(key, version, written)) return next;
  }
  throw new SessionConflictError(key, ATTEMPTS);
}
