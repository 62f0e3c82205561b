import {
  Command,
  type CommandContext,
  deriveCommands,
  type MessageContext,
  OnMessage,
  Option,
  Subcommand,
} from '@boardbot/core';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';

class RollOptions {
  @Option({ description: 'Sides on the die' }) @IsOptional() @IsInt() @Min(2) @Max(1000) sides = 6;
  @Option({ description: 'How many dice' }) @IsInt() @Min(1) count!: number;
}

@Command({ name: 'roll', description: 'Roll a die', options: RollOptions })
class Roll {
  run(_ctx: CommandContext, _o: RollOptions) {}
}

@Command({ name: 'ping', description: 'Ping' })
class Ping {
  run() {}
}

class TagOptions {
  @Option({ description: 'Tag name' }) name!: string;
}

@Command({ name: 'tag', description: 'Tags' })
class Tag {
  @Subcommand({ name: 'add', description: 'Add a tag', options: TagOptions })
  add(_ctx: CommandContext<TagOptions>, _o: TagOptions) {}
  @Subcommand({ name: 'list', description: 'List tags' })
  list() {}
}

class Greeter {
  @OnMessage(/hi/)
  hi(_ctx: MessageContext) {}
}

describe('deriveCommands', () => {
  it('derives the registered set in handler order, skipping classes without @Command', () => {
    expect(deriveCommands([Roll, Greeter, Ping, Tag])).toEqual([
      {
        name: 'roll',
        description: 'Roll a die',
        options: [
          { name: 'count', description: 'How many dice', type: 'integer', required: true, min_value: 1 },
          { name: 'sides', description: 'Sides on the die', type: 'integer', min_value: 2, max_value: 1000 },
        ],
      },
      { name: 'ping', description: 'Ping' },
      {
        name: 'tag',
        description: 'Tags',
        options: [
          {
            name: 'add',
            description: 'Add a tag',
            type: 'subcommand',
            options: [{ name: 'name', description: 'Tag name', type: 'string', required: true, max_length: 1000 }],
          },
          { name: 'list', description: 'List tags', type: 'subcommand' },
        ],
      },
    ]);
  });

  it('fails with every problem, naming the command and the class property', () => {
    class BadOptions {
      @Option({ description: 'a $ is not in a wire name' }) $count!: number;
      @Option({ description: '' }) @IsOptional() note?: string;
    }
    @Command({ name: 'Bad', description: 'Bad', options: BadOptions })
    class Bad {
      run() {}
    }
    let error: unknown;
    try {
      deriveCommands([Bad, Ping, Ping]);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'BOARDBOT_INVALID_COMMANDS' });
    const problems = (error as { problems: string[] }).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/Bad: .*\(at \/0\/name\)/),
        expect.stringMatching(/^\/Bad \(BadOptions\.\$count\): .*\(at \/0\/options\/0\/name\)/),
        expect.stringMatching(/^\/Bad \(BadOptions\.note\): .*\(at \/0\/options\/1\/description\)/),
        expect.stringMatching(/^\/ping: Duplicate command name "ping"/),
      ]),
    );
  });

  it('names the subcommand option behind a problem', () => {
    class SubOptions {
      @Option({ description: 'x', name: 'Who', type: 'user' }) who!: string;
    }
    @Command({ name: 'mod', description: 'Moderation' })
    class Mod {
      @Subcommand({ name: 'warn', description: 'Warn', options: SubOptions })
      warn() {}
    }
    expect(() => deriveCommands([Mod])).toThrow(
      /\/mod \(Mod\.warn\) \(SubOptions\.who\): .*\(at \/0\/options\/0\/options\/0\/name\)/,
    );
  });

  it('rejects a command with neither run() nor subcommands, or with both', () => {
    @Command({ name: 'empty', description: 'Nothing' })
    class Empty {}
    @Command({ name: 'both', description: 'Both' })
    class Both {
      run() {}
      @Subcommand({ name: 'x', description: 'x' })
      x() {}
    }
    expect(() => deriveCommands([Empty])).toThrow(expect.objectContaining({ code: 'BOARDBOT_INVALID_HANDLER' }));
    expect(() => deriveCommands([Both])).toThrow(/both run\(\) and @Subcommand/);
  });

  it('rejects options on a command that has subcommands (one level holds one kind)', () => {
    @Command({ name: 'mixed', description: 'Mixed', options: TagOptions })
    class Mixed {
      @Subcommand({ name: 'x', description: 'x' })
      x() {}
    }
    expect(() => deriveCommands([Mixed])).toThrow(/options belong on each @Subcommand/);
  });

  it('rejects a handler class without any decorator', () => {
    class Plain {}
    expect(() => deriveCommands([Plain])).toThrow(/Plain is listed in handlers but has no @Command/);
  });
});
