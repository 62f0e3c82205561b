import { BoardAdapter } from './adapter.js';
import { type BoardAdapterOptions, resolveBoardAdapterOptions } from './options.js';

/**
 * Makes the board platform's Chat SDK adapter; register it as `adapters: { board: createBoardAdapter() }`
 * and call `await chat.initialize()` to connect it.
 * @param options - the token (else `BOARDBOT_TOKEN`), the API URL (else `BOARDBOT_API_URL`), commands, bounds
 * @throws ChatAdapterOptionError naming an option that cannot work
 * @example
 * const chat = new Chat({ userName: 'dev-bot', adapters: { board: createBoardAdapter() }, state: createMemoryState() });
 * chat.onNewMention((thread) => thread.post('Hello!'));
 * await chat.initialize();
 */
export function createBoardAdapter(options: BoardAdapterOptions = {}): BoardAdapter {
  return new BoardAdapter(resolveBoardAdapterOptions(options));
}
