import type { Position, PositionKey, PositionStore } from './position-store.js';

/**
 * Positions in memory, for tests: a bot restarted in the same process with the same store resumes
 * where the stopped one was.
 */
export class MemoryPositionStore implements PositionStore {
  readonly description = 'memory';
  private readonly positions = new Map<string, Position>();

  async load(key: PositionKey): Promise<Position | undefined> {
    const found = this.positions.get(keyOf(key));
    return found && structuredClone(found);
  }

  async save(key: PositionKey, position: Position): Promise<void> {
    this.positions.set(keyOf(key), structuredClone(position));
  }
}

const keyOf = (key: PositionKey) => `${key.apiUrl}\n${key.appId}`;
