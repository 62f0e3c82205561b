import { type BoardAdapterOptions, createBoardAdapter } from '@boardbot/chat-adapter';
import type { SeededEmulator } from '@boardbot/test-support/emulator';
import { createMemoryState } from '@chat-adapter/state-memory';
import { Chat, type Logger, type StateAdapter } from 'chat';

/**
 * A Chat instance on the board adapter for a seeded emulator, with no handler yet: each test adds
 * the handlers it needs, as Chat SDK's documentation writes them.
 * @param emulator - the platform
 * @param options - more adapter options
 * @param state - the state adapter (memory by default)
 * @param logger - Chat's logger (silent by default)
 */
export function chatOn(
  emulator: SeededEmulator,
  options: BoardAdapterOptions = {},
  state?: StateAdapter,
  logger: Logger | 'silent' = 'silent',
): Chat {
  return new Chat({
    userName: 'dev-bot',
    adapters: { board: createBoardAdapter({ token: emulator.token, baseUrl: emulator.apiUrl, ...options }) },
    state: state ?? createMemoryState(),
    logger,
  });
}
