import type { BaseContext } from '@boardbot/core';
import type { Poll } from './poll.js';
import { tally } from './render.js';

/**
 * The open polls, one per board, kept in memory (a restart forgets them; a real bot would keep them
 * in a database). A provider, so every handler shares the same book.
 */
export class PollBook {
  private readonly open = new Map<string, Poll>();

  /** The open poll of a board, if any. */
  get(boardId: string): Poll | undefined {
    return this.open.get(boardId);
  }

  /** The open poll whose message is `messageId`, if any. */
  byMessage(messageId: string): Poll | undefined {
    for (const poll of this.open.values()) if (poll.messageId === messageId) return poll;
    return undefined;
  }

  /** Opens a poll on its board (the caller checked that none is open). */
  add(poll: Poll): void {
    this.open.set(poll.boardId, poll);
  }

  /** Closes a board's poll: later votes find no poll. */
  remove(poll: Poll): void {
    if (this.open.get(poll.boardId) === poll) this.open.delete(poll.boardId);
  }

  /**
   * Edits the poll message to show `text` (the live tally unless given). Edits are chained per
   * poll and each renders the poll as it is when it runs, so when votes arrive together the last
   * edit always shows every vote, whatever order the requests would have finished in.
   *
   * @param ctx - the context whose REST client and correlation id the edit uses
   * @param poll - the poll
   * @param text - the content to show @defaultValue the tally
   */
  refresh(ctx: BaseContext, poll: Poll, text?: () => string): Promise<void> {
    const next = poll.editing.then(async () => {
      if (poll.messageId === undefined) return;
      const content = text ? text() : tally(poll);
      await ctx.rest.editMessage(poll.boardId, poll.messageId, { content }, ctx.requestOptions);
    });
    // A failed edit is reported to the caller, but does not stop the edits queued after it.
    poll.editing = next.catch(() => {});
    return next;
  }
}
