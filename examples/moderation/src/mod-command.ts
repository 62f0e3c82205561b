import { Command, type CommandContext, Cooldown, Option, RequireRole, Subcommand } from '@boardbot/core';
import { IsString, Length, Matches } from 'class-validator';
import { Rules } from './rules.js';
import { Strikes } from './strikes.js';

/** Options of the subcommands about a person. */
export class UserOptions {
  @Option({ description: 'The person', type: 'user' }) @IsString() user!: string;
}

/** Options of the subcommands about a word. */
export class WordOptions {
  @Option({ description: 'One word' })
  @IsString()
  @Length(2, 32)
  @Matches(/^[\p{L}\p{N}']+$/u, { message: '$property must be a single word' })
  word!: string;
}

/** `/mod`: strikes and banned words, for the board's owners and admins only. */
@Command({ name: 'mod', description: 'Moderation tools (owners and admins)' })
@RequireRole('admin', { reply: 'Only board owners and admins can use /mod.' })
export class ModCommand {
  constructor(
    private readonly rules: Rules,
    private readonly strikes: Strikes,
  ) {}

  @Subcommand({ name: 'strikes', description: 'How many warnings a person has had here', options: UserOptions })
  @Cooldown({ ms: 5000, per: 'user' })
  async strikesOf(ctx: CommandContext<UserOptions>, { user }: UserOptions) {
    const profile = await ctx.rest.getUser(user, ctx.requestOptions);
    const n = this.strikes.count(ctx.boardId, user);
    return `${profile.display_name} has ${n} strike${n === 1 ? '' : 's'} on this board.`;
  }

  @Subcommand({ name: 'forgive', description: 'Clear a person’s strikes here', options: UserOptions })
  async forgive(ctx: CommandContext<UserOptions>, { user }: UserOptions) {
    const profile = await ctx.rest.getUser(user, ctx.requestOptions);
    const n = this.strikes.clear(ctx.boardId, user);
    return `Forgiven: ${profile.display_name}’s ${n} strike${n === 1 ? '' : 's'} are cleared.`;
  }

  @Subcommand({ name: 'ban', description: 'Add a banned word', options: WordOptions })
  ban(_ctx: CommandContext<WordOptions>, { word }: WordOptions) {
    const w = word.toLowerCase();
    if (!this.rules.bannedWords.includes(w)) this.rules.bannedWords.push(w);
    return `"${w}" is banned now.`;
  }

  @Subcommand({ name: 'unban', description: 'Remove a banned word', options: WordOptions })
  unban(_ctx: CommandContext<WordOptions>, { word }: WordOptions) {
    const w = word.toLowerCase();
    const i = this.rules.bannedWords.indexOf(w);
    if (i === -1) return `"${w}" was not banned.`;
    this.rules.bannedWords.splice(i, 1);
    return `"${w}" is allowed again.`;
  }

  @Subcommand({ name: 'words', description: 'List the banned words' })
  words() {
    const list = this.rules.bannedWords;
    return list.length === 0 ? 'No word is banned.' : `Banned words: ${list.join(', ')}.`;
  }
}
