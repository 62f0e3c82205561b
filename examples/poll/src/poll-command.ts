import { Command, type CommandContext, Option, Subcommand } from '@boardbot/core';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { findChoice, MAX_CHOICES, type Poll, parseChoices } from './poll.js';
import { PollBook } from './poll-book.js';
import { pollEmbed, resultsEmbed, tally, verdict } from './render.js';

/** Options of `/poll create`. */
export class CreateOptions {
  @Option({ description: 'The question' }) @IsString() @Length(3, 200) question!: string;
  @Option({ description: 'The choices, separated by commas' }) @IsString() @Length(3, 500) choices!: string;
}

/** Options of `/poll vote`. */
export class VoteOptions {
  @Option({ description: 'The number of your choice' }) @IsInt() @Min(1) @Max(MAX_CHOICES) choice!: number;
}

/**
 * `/poll create|vote|close`: one open poll per board, shown as an embed whose tally the bot edits as
 * votes come in.
 */
@Command({ name: 'poll', description: 'Run a poll on this board' })
export class PollCommand {
  constructor(private readonly book: PollBook) {}

  @Subcommand({ name: 'create', description: 'Start a poll', options: CreateOptions })
  async create(ctx: CommandContext<CreateOptions>, { question, choices }: CreateOptions) {
    if (this.book.get(ctx.boardId)) return 'A poll is already open on this board: close it first with /poll close.';
    const parsed = parseChoices(choices);
    if ('problem' in parsed) return parsed.problem;
    const poll: Poll = {
      boardId: ctx.boardId,
      question,
      choices: parsed.choices,
      votes: new Map<string, number>(),
      ownerId: ctx.user.id,
      ownerName: ctx.user.display_name,
      messageId: undefined,
      editing: Promise.resolve(),
    };
    this.book.add(poll);
    const message = await ctx.reply({ content: tally(poll), embeds: [pollEmbed(poll)] });
    poll.messageId = message.id;
    // Votes that came in while the poll was being posted are shown at once.
    if (poll.votes.size > 0) await this.book.refresh(ctx, poll);
  }

  @Subcommand({ name: 'vote', description: 'Vote in the open poll', options: VoteOptions })
  async vote(ctx: CommandContext<VoteOptions>, { choice }: VoteOptions) {
    const poll = this.book.get(ctx.boardId);
    if (!poll) return 'There is no open poll on this board. Start one with /poll create.';
    const index = findChoice(poll, String(choice));
    if (index === undefined) return `There is no choice ${choice}: pick 1 to ${poll.choices.length}.`;
    poll.votes.set(ctx.user.id, index);
    await ctx.reply(`You voted for ${poll.choices[index]}.`);
    await this.book.refresh(ctx, poll);
  }

  @Subcommand({ name: 'close', description: 'Close the open poll and show the results' })
  async close(ctx: CommandContext) {
    const poll = this.book.get(ctx.boardId);
    if (!poll) return 'There is no open poll on this board.';
    if (poll.ownerId !== ctx.user.id) return `Only ${poll.ownerName}, who started the poll, can close it.`;
    this.book.remove(poll);
    await ctx.reply({ content: verdict(poll), embeds: [resultsEmbed(poll)] });
    await this.book.refresh(ctx, poll, () => verdict(poll));
  }
}
