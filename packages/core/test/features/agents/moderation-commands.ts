import { Command, type CommandContext, Cooldown, Option, RequireRole } from '@boardbot/core';

// Commands whose guards say who runs them, for the tests of commands run as the asking person.

/** Who `/ban` banned, `<who> by <username>`; a test empties it after itself. */
export const banned: string[] = [];

class BanOptions {
  @Option({ description: 'Who to ban', type: 'user' }) who!: string;
}

/** `/ban who`: admins only. */
@Command({ name: 'ban', description: 'Ban a person (moderators)', options: BanOptions })
@RequireRole('admin')
export class Ban {
  run(ctx: CommandContext, options: BanOptions) {
    banned.push(`${options.who} by ${ctx.user.username}`);
    return 'banned';
  }
}

/** `/coin`: once a minute per person. */
@Command({ name: 'coin', description: 'Toss a coin, once a minute per person' })
@Cooldown({ per: 'user', uses: 1, ms: 60_000 })
export class Coin {
  run(ctx: CommandContext) {
    return `heads for ${ctx.user.username}`;
  }
}
