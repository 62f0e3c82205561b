import type { SessionValue, WrittenValue } from './session-store.js';

/**
 * How many updates' values a session keeps beside their keys (the latest one's is the session
 * itself, so this many before it): a replayed update among them resolves with its own value.
 */
export const WRITTEN_KEPT = 16;

/**
 * How much JSON those values may take together (characters): a session that holds a lot keeps fewer
 * of them, so its record stays small enough to be rewritten at every update.
 */
export const WRITTEN_BYTES = 32 * 1024;

/**
 * The value the update of `key` wrote, if the session still keeps it: the session itself when that
 * update was the latest (which holds for a value written before `written` existed, too), else the
 * one kept for it in `written`.
 *
 * @param stored - the session as read
 * @param key - the update's key
 */
export function writtenBy(stored: SessionValue, key: string): Omit<WrittenValue, 'key'> | undefined {
  if (stored.applied.at(-1) === key) return { data: stored.data, shape: stored.shape };
  return stored.written?.find((w) => w.key === key);
}

/**
 * The values to keep in the next write of a session: those `previous` kept, and its own (written by
 * the last update it applied), newest first until {@link WRITTEN_KEPT} or {@link WRITTEN_BYTES}.
 *
 * @param previous - the session as read before the update (undefined or null: none)
 */
export function keptWrites(previous: SessionValue | null | undefined): WrittenValue[] {
  if (!previous) return [];
  const all = [...(previous.written ?? [])];
  const latest = previous.applied.at(-1);
  if (latest !== undefined) all.push({ key: latest, data: previous.data, shape: previous.shape });
  const kept: WrittenValue[] = [];
  let size = 0;
  for (let i = all.length - 1; i >= 0 && kept.length < WRITTEN_KEPT; i--) {
    const entry = all[i] as WrittenValue;
    size += JSON.stringify(entry.data ?? null).length;
    if (size > WRITTEN_BYTES) break;
    kept.push(entry);
  }
  return kept.reverse();
}
