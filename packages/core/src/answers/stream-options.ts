import { ANSWER_CURSOR, ANSWER_PLACEHOLDER } from '@boardbot/protocol/runtime';
import type { StreamStatus } from './stream-status.js';
/** Options of `ctx.stream(source, options)`. */
export interface StreamOptions {
  /**
   * Least time between two edits of one answer, in milliseconds: text that arrives meanwhile waits
   * and goes out with the next edit (each edit carries all the text so far).
   * @defaultValue 1000
   */
  throttleMs?: number;
  /** Longest wait for the source's next text; past it the answer ends with a marker. @defaultValue 30000 */
  idleTimeoutMs?: number;
  /** Longest a stream may run; past it the answer ends with a marker. @defaultValue 300000 (5 minutes) */
  maxDurationMs?: number;
  /** Most characters of one answer; past it the answer ends with a marker. @defaultValue 100000 */
  maxLength?: number;
  /** A status line shown until the next text (see {@link StreamStatus}). @defaultValue none */
  status?: StreamStatus;
}

/** The defaults of {@link StreamOptions}. */
export const DEFAULT_STREAM_OPTIONS = {
  throttleMs: 1000,
  idleTimeoutMs: 30_000,
  maxDurationMs: 300_000,
  maxLength: 100_000,
} as const satisfies Required<Omit<StreamOptions, 'status'>>;

/** What `ctx.stream()` resolves with once the answer's final edit is made. */
export interface StreamedAnswer {
  /** The text the source gave, whole. */
  readonly text: string;
  /** The messages the answer takes, in order (one per 4,000 characters or so). */
  readonly parts: readonly { readonly boardId: string; readonly messageId: string }[];
}

/** What `ctx.stream()` reads: an async iterable of text (`streamText().textStream`) or a web stream. */
export type StreamSource = AsyncIterable<string> | ReadableStream<string>;

/**
 * What an answer shows while and after it streams. The placeholder is fixed (it is what the first
 * post carries, under the run's next idempotency key, so a replay posts nothing new).
 */
export const STREAM_TEXTS = {
  /** The first post of every part, edited at once. */
  placeholder: ANSWER_PLACEHOLDER,
  /** Ends every edit but the final one: the answer is still being written. */
  cursor: ANSWER_CURSOR,
  /** The final text of an answer whose source gave none. */
  empty: '(no answer)',
  /** Ends an answer whose source failed or stalled, or that ran too long. */
  stopped: '\n\n⚠ (the answer stopped here)',
  /** Ends an answer whose bot stopped (`stop()`) while it streamed: the next start completes it. */
  interrupted: '\n\n⏸ (interrupted: the answer will be completed when the bot is back)',
} as const;
