import { Injectable, type MessageContext, OnMessage } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { findChoice } from './poll.js';
import { PollBook } from './poll-book.js';

/** Only replies can be votes: every other message passes by without any work. */
const isReply = (message: Message) => message.reply_to !== null && message.content !== null;

/**
 * Votes by message: a reply to the poll message with a choice's number or text (`2`, `sushi`).
 * The bot answers nothing; the edited tally is the answer.
 */
@Injectable()
export class VoteListener {
  constructor(private readonly book: PollBook) {}

  @OnMessage(isReply)
  async vote(ctx: MessageContext) {
    const poll = this.book.byMessage(ctx.message.reply_to as string);
    if (!poll || ctx.message.author === null) return;
    const index = findChoice(poll, ctx.message.content as string);
    if (index === undefined) return;
    poll.votes.set(ctx.message.author, index);
    await this.book.refresh(ctx, poll);
  }
}
