import { type BoardAdapterOptions, createBoardAdapter } from '@boardbot/chat-adapter';
import type { SeededEmulator } from '@boardbot/test-support/emulator';
import { createMemoryState } from '@chat-adapter/state-memory';
import { Chat, type StateAdapter } from 'chat';

/**
 * A Chat instance on the board adapter for a seeded emulator, with no handler yet: each test adds
 * the handlers it needs, as Chat SDK's documentation writes them.
 * @param emulator - the platform
 * @param options - more adapter options
 * @param state - the state adapter (memory by default)
 */
export function chatOn(emulator: SeededEmulator, options: BoardAdapterOptions = {}, state?: StateAdapter): Chat {
  return new Chat({
    userName: 'dev-bot',
    adapters: { board: createBoardAdapter({ token: emulator.token, baseUrl: emulator.apiUrl, ...options }) },
    state: state ?? createMemoryState(),
    logger: 'silent',
  });
}
