import type { BotEvent } from '@boardbot/core';

/**
 * What `boardbot dev` (the parent, which holds the gateway connection) tells the bot's process over
 * the IPC channel. `n` numbers the gateway's events in the order they arrived; 0 is a copy the bot
 * need not acknowledge (the connection's `ready`, given again to each new process).
 */
export type ToBot =
  /**
   * It is fed from now on; where the handled messages stand per board (for a gap's read-back), and
   * the messages of an unfinished read-back a process before it handled (by board, their seqs).
   */
  | {
      type: 'boardbot:marks';
      boards: Record<string, number>;
      readBack: Record<string, number[]>;
      since: number;
      boardCount: number;
    }
  /** A gateway event to handle, then acknowledge with its `n`. */
  | { type: 'boardbot:event'; n: number; event: BotEvent }
  /** A bot run from its entry (it connects itself): the previous process stopped, connect now. */
  | { type: 'boardbot:go' };

/** What the bot's process tells `boardbot dev` over the IPC channel. */
export type ToParent =
  /** Its bot is ready to be fed: its start resolves once it is (with `marks`). */
  | { type: 'boardbot:fed' }
  /** It runs its entry, which opens its own gateway: it waits for `go` before it connects. */
  | { type: 'boardbot:own-gateway' }
  /** The handlers of event `n` finished (or no handler took it): the resume point may pass it. */
  | { type: 'boardbot:done'; n: number }
  /** A message read back after a gap (it has no `n`) was handled: no process handles it again. */
  | { type: 'boardbot:read-back'; board: string; seq: number }
  /** Its source closed: every `done` it will send was sent before this. */
  | { type: 'boardbot:closed' };

/**
 * Whether an IPC message is one of `boardbot dev`'s (anything else on the channel is not).
 * @param message - what arrived on the channel
 */
export function isRelayMessage<T extends ToBot | ToParent>(message: unknown): message is T {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { type?: unknown }).type === 'string' &&
    (message as { type: string }).type.startsWith('boardbot:')
  );
}
