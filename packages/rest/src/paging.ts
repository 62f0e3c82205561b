import type { ListMessagesQuery, Message } from '@boardbot/protocol';
import { LIMITS } from '@boardbot/protocol/runtime';
import { type ErrorContext, InvalidArgumentError, InvalidResponseError } from './errors.js';
import { checkCount } from './routes.js';

/** Options of {@link RestClient.iterateMessages}. */
export interface IterateMessagesOptions {
  /** Start below this `seq` (exclusive). @defaultValue the newest message */
  before?: number | undefined;
  /** Messages per request, 1..100. @defaultValue `100` */
  pageSize?: number | undefined;
  /** Stop before reaching this `seq`: only messages with `seq > untilSeq` are yielded. @defaultValue none (to the first message) */
  untilSeq?: number | undefined;
  /** Stop after this many messages. @defaultValue none */
  max?: number | undefined;
}

/** Defaults of {@link IterateMessagesOptions}. */
export const DEFAULT_ITERATE_OPTIONS = { pageSize: LIMITS.listMax } as const;

/**
 * Pages through a board's messages newest first (CONTRACT: follow `before = lowest seq` until a page
 * comes back empty), yielding one message at a time; tombstones included, as the server lists them.
 * Options are checked at once, before the first request.
 * @param list - fetches one page (the client's `listMessages`, with the caller's request options)
 * @param options - cursor, page size and bounds
 * @param ctx - the call, for errors
 */
export function iterateMessages(
  list: (query: ListMessagesQuery) => Promise<Message[]>,
  options: IterateMessagesOptions,
  ctx: ErrorContext,
): AsyncIterableIterator<Message> {
  const issues = [
    ...checkCount(options.before, '/before', 1),
    ...checkCount(options.pageSize, '/pageSize', 1, LIMITS.listMax),
    ...checkCount(options.untilSeq, '/untilSeq', 0),
    ...checkCount(options.max, '/max', 0),
  ];
  if (issues.length > 0) throw new InvalidArgumentError('Invalid iterateMessages options', issues, ctx);
  return pages(list, options, ctx);
}

async function* pages(
  list: (query: ListMessagesQuery) => Promise<Message[]>,
  options: IterateMessagesOptions,
  ctx: ErrorContext,
): AsyncGenerator<Message, void, undefined> {
  const limit = options.pageSize ?? DEFAULT_ITERATE_OPTIONS.pageSize;
  const { untilSeq, max } = options;
  let before = options.before;
  let yielded = 0;
  if (max === 0) return;
  for (;;) {
    const page = await list(before === undefined ? { limit } : { before, limit });
    if (page.length === 0) return;
    let lowest = Number.POSITIVE_INFINITY;
    for (const message of page) {
      const seq = message.seq;
      if (!Number.isInteger(seq) || (before !== undefined && seq >= before)) {
        // A server that ignored the cursor would otherwise make this loop forever.
        throw new InvalidResponseError(
          { status: 200, problem: `message seq ${String(seq)} is not below the cursor ${String(before)}`, excerpt: '' },
          ctx,
        );
      }
      if (untilSeq !== undefined && seq <= untilSeq) return;
      yield message;
      if (max !== undefined && ++yielded >= max) return;
      if (seq < lowest) lowest = seq;
    }
    // CONTRACT: seq starts at 1, so nothing lies below it.
    if (lowest <= 1) return;
    before = lowest;
  }
}
