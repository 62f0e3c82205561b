import {
  Command,
  type CommandContext,
  type MessageContext,
  OnMessage,
  OnMessageDelete,
  OnMessageEdit,
  Option,
  Subcommand,
} from '@boardbot/core';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

// A small bot that exercises every part of the harness: answers, replies, edits, deletions,
// silence, failures and a handler that takes several round trips.

class RollOptions {
  @Option({ description: 'Sides on the die' }) @IsOptional() @IsInt() @Min(2) @Max(1000) sides = 6;
}

/** `/roll`: answers with the number of sides (a loaded die keeps the tests exact). */
@Command({ name: 'roll', description: 'Roll a die', options: RollOptions })
export class Roll {
  run(_ctx: CommandContext<RollOptions>, { sides }: RollOptions) {
    return `You rolled ${sides}`;
  }
}

class NoteOptions {
  @Option({ description: 'The note' }) @IsString() text!: string;
  @Option({ description: 'How loud' }) @IsOptional() @IsIn(['low', 'high']) volume = 'low';
}

/** `/note add|clear`: subcommands. */
@Command({ name: 'note', description: 'Notes' })
export class Notes {
  @Subcommand({ name: 'add', description: 'Add a note', options: NoteOptions })
  add(_ctx: CommandContext<NoteOptions>, { text, volume }: NoteOptions) {
    return `Noted (${volume}): ${text}`;
  }

  @Subcommand({ name: 'clear', description: 'Clear the notes' })
  clear() {
    return 'Cleared';
  }
}

/** `/countdown`: posts a message, edits it, then deletes it. */
@Command({ name: 'countdown', description: 'Counts down' })
export class Countdown {
  async run(ctx: CommandContext) {
    const posted = await ctx.send('3');
    await ctx.rest.editMessage(ctx.boardId, posted.id, { content: '2' }, ctx.requestOptions);
    await ctx.rest.editMessage(ctx.boardId, posted.id, { content: '1' }, ctx.requestOptions);
    await ctx.rest.deleteMessage(ctx.boardId, posted.id, ctx.requestOptions);
    return 'Lift-off';
  }
}

/** `/twice`: answers, then follows up. */
@Command({ name: 'twice', description: 'Answers twice' })
export class Twice {
  async run(ctx: CommandContext) {
    await ctx.reply('first');
    await ctx.followUp('second');
  }
}

/** `/quiet`: never answers (the runtime logs a warning). */
@Command({ name: 'quiet', description: 'Says nothing' })
export class Quiet {
  run() {}
}

/** `/elsewhere`: posts on the board instead of answering the interaction. */
@Command({ name: 'elsewhere', description: 'Posts instead of answering' })
export class Elsewhere {
  async run(ctx: CommandContext) {
    await ctx.send('I answer in the wrong place');
  }
}

/** `/secretive`: logs the interaction, token included, which the captured log must redact. */
@Command({ name: 'secretive', description: 'Logs too much' })
export class Secretive {
  run(ctx: CommandContext) {
    ctx.log.info({ interaction: ctx.interaction }, 'logged the whole interaction');
    return 'ok';
  }
}

/** Message listeners: greetings, edits, deletions, and a reply that takes several round trips. */
export class Listener {
  @OnMessage(/^hello\b/i)
  hello(ctx: MessageContext) {
    return `Hello, ${ctx.authorName}!`;
  }

  @OnMessage(/^slow\b/)
  async slow(ctx: MessageContext) {
    // Several requests in a row: settle() must wait for the whole handler, not the first request.
    await ctx.rest.getApp(ctx.requestOptions);
    await ctx.rest.listMessages(ctx.boardId, { limit: 5 }, ctx.requestOptions);
    await ctx.reply('done slowly');
  }

  @OnMessageEdit(/^hello\b/i)
  async edited(ctx: MessageContext) {
    await ctx.send(`You changed it to: ${ctx.message.content}`);
  }

  @OnMessageDelete()
  async deleted(ctx: MessageContext) {
    await ctx.send(`A message was deleted: ${ctx.message.id}`);
  }
}

/** Every handler of the test bot. */
export const HANDLERS = [Roll, Notes, Countdown, Twice, Quiet, Elsewhere, Secretive, Listener];
