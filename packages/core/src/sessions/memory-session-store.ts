import type { SessionRecord, SessionStore, SessionValue } from './session-store.js';

/**
 * Sessions in memory, for tests and for a single process that may forget them on restart. Shared by
 * two bots in one process, it is a shared store like any other.
 */
export class MemorySessionStore implements SessionStore {
  readonly description = 'memory';
  private readonly records = new Map<string, SessionRecord>();

  async read(key: string): Promise<SessionRecord | undefined> {
    const record = this.records.get(key);
    return record === undefined ? undefined : structuredClone(record);
  }

  async write(key: string, expected: number, value: SessionValue | null): Promise<boolean> {
    // No await between the check and the set: one event loop turn makes them atomic.
    if ((this.records.get(key)?.version ?? 0) !== expected) return false;
    this.records.set(key, { version: expected + 1, value: structuredClone(value) });
    return true;
  }
}
