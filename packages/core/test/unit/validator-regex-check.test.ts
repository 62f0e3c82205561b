import {
  AllowSlowRegex,
  type Bot,
  Command,
  type CommandContext,
  createBot,
  defineConversation,
  type MessageContext,
  OnMessage,
  Option,
  type Plugin,
  Subcommand,
  UnsafeRegexError,
} from '@boardbot/core';
import { recordingLogger, type TempDir, tempDir } from '@boardbot/test-support';
import { IsOptional, Matches } from 'class-validator';
import { afterEach, describe, expect, it } from 'vitest';

// CONTRACT (docs/listening-to-messages.md, "Patterns that cannot stall"): every regular expression a
// stranger's text reaches is checked at start, the validators of options and answer classes too.
// The security review's pattern, /^([a-z0-9]+)+$/i, on a text command's option held the whole bot
// 21 s with "!paint " + "a"×28 + "!".

class PaintOptions {
  @Option({ description: 'A colour' })
  @Matches(/^([a-z0-9]+)+$/i)
  colour!: string;
}

@Command({ name: 'paint', description: 'Paints', options: PaintOptions, text: true })
class Paint {
  run(ctx: CommandContext<PaintOptions>) {
    return `painted ${ctx.options.colour}`;
  }
}

class Nickname {
  @Option({ description: 'Your nickname' })
  @Matches(/^([a-z0-9]+)+$/i)
  nick!: string;
}

let dir: TempDir | undefined;
let bots: Bot[] = [];
afterEach(async () => {
  for (const bot of bots) await bot.stop();
  bots = [];
  dir?.remove();
  dir = undefined;
});

/** How a bot's start ends: its error (it cannot reach its API on port 1 once past the check). */
async function startError(handlers: (new () => unknown)[], plugins: Plugin[] = []): Promise<unknown> {
  dir ??= tempDir('boardbot-validator-regex-');
  const bot = createBot({
    token: 'test-token',
    apiUrl: 'http://127.0.0.1:1',
    handlers,
    plugins,
    stateDir: dir.dir,
    position: false,
    handleSignals: false,
    logger: recordingLogger(),
  });
  bots.push(bot);
  return bot.start().then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('the start-time check of validators', () => {
  it("refuses a text command's @Matches(/^([a-z0-9]+)+$/i), naming Class.property", async () => {
    const error = await startError([Paint]);
    expect(error).toBeInstanceOf(UnsafeRegexError);
    expect((error as UnsafeRegexError).code).toBe('BOARDBOT_UNSAFE_REGEX');
    expect((error as UnsafeRegexError).problems).toEqual([
      expect.stringMatching(/^PaintOptions\.colour: \/\^\(\[a-z0-9\]\+\)\+\$\/i takes exponential time/),
    ]);
    expect((error as Error).message).toContain('@AllowSlowRegex()');
  });

  it("refuses a conversation answer class's @Matches, naming Class.property", async () => {
    const Signup = defineConversation({
      name: 'signup',
      questions: ['Hello?', { ask: 'Your nickname?', answer: Nickname }],
      done: () => 'welcome',
    });
    const error = await startError([Signup.listener]);
    expect(error).toBeInstanceOf(UnsafeRegexError);
    expect((error as UnsafeRegexError).problems).toEqual([
      expect.stringMatching(/^Nickname\.nick: \/\^\(\[a-z0-9\]\+\)\+\$\/i takes exponential time/),
    ]);
  });

  it("refuses a subcommand's option and a pattern given as text, with its modifiers", async () => {
    class Tag {
      @Option({ description: 'A tag' })
      @IsOptional()
      @Matches('^(\\w+\\s?)+$', 'i')
      tag?: string;
    }
    @Command({ name: 'tags', description: 'Tags' })
    class Tags {
      @Subcommand({ name: 'add', description: 'Adds one', options: Tag })
      add() {}
    }
    const error = await startError([Tags]);
    expect((error as UnsafeRegexError).problems).toEqual([
      expect.stringMatching(/^Tag\.tag: \/\^\(\\w\+\\s\?\)\+\$\/i takes exponential time/),
    ]);
  });

  it("refuses a plugin's listener", async () => {
    class Greedy {
      @OnMessage(/^(a+)+$/)
      greedy(_ctx: MessageContext) {}
    }
    const error = await startError([], [{ name: 'greedy', handlers: [Greedy] }]);
    expect((error as UnsafeRegexError).problems).toEqual([expect.stringMatching(/^Greedy\.greedy: /)]);
  });

  it('lets a property marked @AllowSlowRegex() through: the author accepted it', async () => {
    class Knowing {
      @Option({ description: 'A colour' })
      @Matches(/^([a-z0-9]+)+$/i)
      @AllowSlowRegex()
      colour!: string;
    }
    @Command({ name: 'paint', description: 'Paints', options: Knowing, text: true })
    class KnowingPaint {
      run() {}
    }
    const error = await startError([KnowingPaint]);
    expect(error).not.toBeInstanceOf(UnsafeRegexError);
    expect(error).toBeDefined();
  });
});
