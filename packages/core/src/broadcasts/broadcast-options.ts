import type { Board, SendMessageBody } from '@boardbot/protocol';

/**
 * Which boards a broadcast reaches: a list of board ids, `'all'` the boards the app is installed on,
 * or a filter over them (`GET /boards`). Read at the broadcast's first call and kept in its record:
 * a resumed broadcast reaches the same boards, whatever was installed since.
 */
export type BroadcastTarget = readonly string[] | 'all' | ((board: Board) => boolean);

/** What a broadcast sends to each board: the message of `POST /boards/{id}/messages`, without a reply target. */
export type BroadcastBody = Omit<SendMessageBody, 'replyTo'>;

/** Where a broadcast stands, as its progress callback and its report see it. */
export interface BroadcastProgress {
  /** The broadcast's id. */
  readonly id: string;
  /** Boards it reaches. */
  readonly total: number;
  /** Boards handled so far, by this call and earlier ones: sent or failed. */
  readonly done: number;
  /** Boards that have the message, this call's and earlier calls' together. */
  readonly sent: number;
  /** Boards the platform refused for good (not installed any more, forbidden), in total. */
  readonly failed: number;
}

/** A board the platform refused for good: the broadcast went on without it. */
export interface BroadcastFailure {
  /** The board. */
  readonly boardId: string;
  /** The contract's error code (`unknown_board`, `forbidden`...). */
  readonly code: string;
}

/** What a call of `bot.broadcast` did. */
export interface BroadcastReport extends BroadcastProgress {
  /** `done`: every board was handled; `cancelled`: the signal (or the bot's stop) ended it first. */
  readonly status: 'done' | 'cancelled';
  /**
   * Boards this call brought to `sent`: a resumed call skips those earlier calls recorded (and counts a
   * board in doubt that already shows the message, read back past the key's life).
   */
  readonly sentNow: number;
  /** The first boards refused for good, at most 100 (`failed` counts them all). */
  readonly failures: readonly BroadcastFailure[];
}

/** Options of `bot.broadcast`. Only `id` is required. */
export interface BroadcastOptions {
  /**
   * The broadcast's own id, chosen by the caller (1 to 100 of `A-Z a-z 0-9 . _ : -`): call again with
   * the same id, after a crash or a cancellation, and the broadcast resumes where it stopped, each
   * board reached once. The same id with another body or other boards is refused
   * (`BOARDBOT_BROADCAST_CHANGED`).
   */
  id: string;
  /** Cancels the broadcast between two boards; the call then resolves with `status: 'cancelled'`. @defaultValue none */
  signal?: AbortSignal | undefined;
  /** Called after each board, with where the broadcast stands. @defaultValue none */
  onProgress?: ((progress: BroadcastProgress) => void) | undefined;
  /**
   * How long the broadcast's record is kept after its last write: the same id called again within it
   * sends nothing twice; after it, the broadcast starts over. @defaultValue 30 days
   */
  keepMs?: number;
  /**
   * How long the platform is trusted to recognise a message's `Idempotency-Key` (it keeps keys 24 h):
   * a board whose send was begun by a crashed process longer ago than this is checked by reading
   * its newest messages before it is sent again. @defaultValue 23 hours (the platform's 24 h, less a margin)
   */
  keyLifeMs?: number;
}

/** The defaults of {@link BroadcastOptions}. */
export const DEFAULT_BROADCAST_OPTIONS = {
  keepMs: 30 * 24 * 60 * 60 * 1000,
  keyLifeMs: 23 * 60 * 60 * 1000,
} as const satisfies Pick<Required<BroadcastOptions>, 'keepMs' | 'keyLifeMs'>;
