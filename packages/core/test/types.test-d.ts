import {
  type Bot,
  type BotOptions,
  Command,
  type CommandContext,
  createBot,
  defineConversation,
  type EditableOptions,
  type EventContext,
  type EventPayload,
  exitCodeAfterStop,
  type GuardFn,
  type HandlerContext,
  type MessageContext,
  type Middleware,
  OnEvent,
  OnMessage,
  OnMessageEdit,
  OnReady,
  Option,
  type ReplyBody,
  refuse,
  type SlashCommandContext,
  type StopReport,
  Subcommand,
  type TextCommandContext,
  type TextCommandOptions,
  type UnknownEventPayload,
} from '@boardbot/core';
import type { Interaction, Message, MessageCreateEvent, ReadyEvent, UserProfile } from '@boardbot/protocol';
import type { RestClient } from '@boardbot/rest';
import { describe, expectTypeOf, it } from 'vitest';

class RollOptions {
  @Option({ description: 'Sides' }) sides = 6;
}

describe('context types', () => {
  it('a command context carries the typed options, the person and the board', () => {
    expectTypeOf<CommandContext<RollOptions>['options']>().toEqualTypeOf<RollOptions>();
    expectTypeOf<CommandContext['user']>().toEqualTypeOf<UserProfile>();
    expectTypeOf<CommandContext['interaction']>().toEqualTypeOf<Interaction | undefined>();
    expectTypeOf<CommandContext['boardId']>().toEqualTypeOf<string>();
    expectTypeOf<CommandContext['command']['subcommand']>().toEqualTypeOf<string | null>();
    expectTypeOf<CommandContext['reply']>().toEqualTypeOf<(body: ReplyBody) => Promise<Message>>();
    expectTypeOf<CommandContext['followUp']>().parameter(0).toEqualTypeOf<ReplyBody>();
    expectTypeOf<CommandContext['rest']>().toEqualTypeOf<RestClient>();
  });

  it('a command context says how it was invoked; the interaction is there for slash, the message for text', () => {
    expectTypeOf<CommandContext['via']>().toEqualTypeOf<'slash' | 'text'>();
    const handler = (ctx: CommandContext<RollOptions>) => {
      if (ctx.via === 'slash') {
        expectTypeOf(ctx.interaction).toEqualTypeOf<Interaction>();
        expectTypeOf(ctx).not.toHaveProperty('message');
      } else {
        expectTypeOf(ctx.interaction).toEqualTypeOf<undefined>();
        expectTypeOf(ctx.message).toEqualTypeOf<Message>();
      }
      // @ts-expect-error: without narrowing, the interaction may be absent (a text invocation)
      return ctx.interaction.token;
    };
    expectTypeOf(handler).toBeFunction();
    expectTypeOf<SlashCommandContext['interaction']>().toEqualTypeOf<Interaction>();
    expectTypeOf<TextCommandContext['message']>().toEqualTypeOf<Message>();
    // A text invocation can be asked for per command, and the prefix and `all` per bot.
    expectTypeOf<NonNullable<BotOptions['textCommands']>>().toEqualTypeOf<TextCommandOptions>();
    expectTypeOf<TextCommandOptions>().toEqualTypeOf<{
      prefix?: string;
      all?: boolean;
      editable?: boolean | EditableOptions;
      suggest?: boolean;
    }>();
    expectTypeOf(Command).parameter(0).toHaveProperty('text').toEqualTypeOf<boolean | undefined>();
  });

  it('editable answers: per command a boolean, per bot and per listener the options too', () => {
    expectTypeOf<EditableOptions>().toEqualTypeOf<{ deleteWithMessage?: boolean }>();
    expectTypeOf(Command).parameter(0).toHaveProperty('editable').toEqualTypeOf<boolean | undefined>();
    expectTypeOf(OnMessage)
      .parameter(1)
      .exclude<undefined>()
      .toHaveProperty('editable')
      .toEqualTypeOf<boolean | EditableOptions | undefined>();
    // Only a new message's listener re-runs on its edit: the others take no `editable`.
    expectTypeOf(OnMessageEdit).parameter(1).exclude<undefined>().not.toHaveProperty('editable');
    // @ts-expect-error a subcommand follows its command's `editable`
    Subcommand({ name: 'add', description: 'Add', editable: true });
  });

  it('a message context carries the message, its author and the match', () => {
    expectTypeOf<MessageContext['message']>().toEqualTypeOf<Message>();
    expectTypeOf<MessageContext['author']>().toEqualTypeOf<UserProfile | null>();
    expectTypeOf<MessageContext['match']>().toEqualTypeOf<RegExpExecArray | null>();
    expectTypeOf<MessageContext['event']>().toEqualTypeOf<'message.create' | 'message.edit' | 'message.delete'>();
    expectTypeOf<MessageContext['edit']>().parameters.toEqualTypeOf<[string | Message, string]>();
    expectTypeOf<MessageContext['delete']>().returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf<MessageContext['skipped']>().toEqualTypeOf<readonly Message[]>();
  });

  it('guards and middleware narrow the context by kind', () => {
    const guard = (ctx: HandlerContext) => {
      if (ctx.kind === 'command') expectTypeOf(ctx).toEqualTypeOf<CommandContext>();
      else expectTypeOf(ctx).toEqualTypeOf<MessageContext>();
      return true;
    };
    expectTypeOf(guard).toBeFunction();
    // A guard that returns nothing lets the handler run (docs/guards-middleware-cooldowns.md).
    expectTypeOf((_ctx: HandlerContext) => {}).toExtend<GuardFn>();
    expectTypeOf(async (_ctx: HandlerContext) => {}).toExtend<GuardFn>();
    expectTypeOf((_ctx: HandlerContext) => 42).not.toExtend<GuardFn>();
    expectTypeOf<Middleware>().parameter(1).toEqualTypeOf<() => Promise<void>>();
  });

  it('a reply body is text or content and embeds', () => {
    expectTypeOf<'hi'>().toExtend<ReplyBody>();
    expectTypeOf<{ embeds: [{ title: 'x' }] }>().toExtend<ReplyBody>();
    expectTypeOf<{ reply_to: string }>().not.toExtend<ReplyBody>();
  });
});

describe('event payload types', () => {
  it('ties each known event name to its payload, and unknown names to the raw data', () => {
    expectTypeOf<EventPayload<'message.create'>>().toEqualTypeOf<MessageCreateEvent>();
    expectTypeOf<EventPayload<'ready'>>().toEqualTypeOf<ReadyEvent>();
    expectTypeOf<EventPayload<'reaction.add'>>().toEqualTypeOf<UnknownEventPayload>();
    expectTypeOf<EventContext['send']>().parameters.toEqualTypeOf<[string, ReplyBody]>();
  });

  it('decorators check the listener signature against the event', () => {
    class Listeners {
      @OnEvent('message.create')
      created(event: MessageCreateEvent, _ctx: EventContext) {
        expectTypeOf(event.message).toEqualTypeOf<Message>();
      }

      @OnReady()
      ready(event: ReadyEvent) {
        expectTypeOf(event.board_ids).toEqualTypeOf<string[]>();
      }

      // @ts-expect-error a ready listener does not receive a message event
      @OnEvent('ready')
      wrong(_event: MessageCreateEvent) {}

      // @ts-expect-error a message listener receives a MessageContext, not a CommandContext
      @OnMessage(/x/)
      notAMessageListener(_ctx: CommandContext) {}

      @OnMessage(/y/, { burst: { mode: 'debounce', ms: 500, per: 'board' } })
      debounced(_ctx: MessageContext) {}

      // @ts-expect-error a burst policy is one of the named modes
      @OnMessage(/z/, { burst: 'throttle' })
      unknownMode(_ctx: MessageContext) {}
    }
    expectTypeOf(Listeners).toBeConstructibleWith();
  });

  it('a subcommand method receives its options class', () => {
    @Command({ name: 'dice', description: 'Dice' })
    class Dice {
      @Subcommand({ name: 'roll', description: 'Roll', options: RollOptions })
      roll(_ctx: CommandContext<RollOptions>, options: RollOptions) {
        expectTypeOf(options.sides).toEqualTypeOf<number>();
      }

      // @ts-expect-error the options parameter must be the options class
      @Subcommand({ name: 'flip', description: 'Flip', options: RollOptions })
      flip(_ctx: CommandContext<RollOptions>, _options: { coins: number }) {}
    }
    expectTypeOf(Dice).toBeConstructibleWith();
  });

  it('createBot returns a bot whose use() chains', () => {
    expectTypeOf(createBot).returns.toEqualTypeOf<Bot>();
    expectTypeOf<Bot['use']>().returns.toEqualTypeOf<Bot>();
    expectTypeOf<Bot['start']>().returns.resolves.toMatchTypeOf<{ inSync: boolean } | undefined>();
  });

  it('stop() reports what it abandoned, and a sixth answer is configured by name', () => {
    expectTypeOf<Bot['stop']>().returns.resolves.toEqualTypeOf<StopReport>();
    expectTypeOf<StopReport['abandoned'][number]>().toEqualTypeOf<{
      readonly handler: string;
      readonly eventId: string;
    }>();
    expectTypeOf<NonNullable<BotOptions['exhaustedInteraction']>>().toEqualTypeOf<'error' | 'send'>();
    expectTypeOf(exitCodeAfterStop).returns.toEqualTypeOf<0 | 1 | 124 | 130>();
  });
});

describe('defineConversation', () => {
  it("types done's answers of branches: each question a branch can return, undefined when it can skip", () => {
    class Age {
      @Option({ description: 'Your age' })
      years!: number;
    }
    defineConversation({
      name: 'branched',
      questions: [
        { ask: 'Age?', answer: Age },
        // Reads the age it declares; may skip.
        ([age]: [Age]) => (age.years < 18 ? 'Who comes with you?' : undefined),
        // Never skips: one checked question or the other.
        (answers) =>
          answers[1] === undefined
            ? { ask: 'Seats?', parse: (t: string) => (/^\d+$/.test(t) ? Number(t) : refuse('A number.')) }
            : 'Why?',
        // An unannotated branch reads unknown answers.
        (answers) => {
          expectTypeOf(answers).toEqualTypeOf<readonly unknown[]>();
          return { ask: 'Day?', answer: Age };
        },
      ],
      done: (_ctx, answers) => {
        expectTypeOf(answers).toEqualTypeOf<[Age, string | undefined, number | string, Age]>();
        // @ts-expect-error the guardian may have been skipped
        answers[1].toUpperCase();
        return answers[0].years;
      },
    });
  });

  it('refuses a branch that returns what is not a question', () => {
    defineConversation({
      name: 'wrong',
      // @ts-expect-error a number is no question
      questions: [() => 42],
      done: () => 'ok',
    });
  });

  it("types done's answers: the text of a plain question, what parse returns for a checked one", () => {
    defineConversation({
      name: 'typed',
      questions: ['Name?', { ask: 'Age?', parse: (t) => (/^\d+$/.test(t) ? Number(t) : refuse('A number, please.')) }],
      done: (_ctx, answers) => {
        expectTypeOf(answers).toEqualTypeOf<[string, number]>();
        // @ts-expect-error the age is a number, not text
        answers[1].toUpperCase();
        return answers[0];
      },
    });
    class Age {
      @Option({ description: 'Your age' })
      years!: number;
    }
    defineConversation({
      name: 'classed',
      questions: [{ ask: 'Age?', answer: Age }],
      done: (_ctx, answers) => {
        expectTypeOf(answers).toEqualTypeOf<[Age]>();
        return answers[0].years;
      },
    });
    const plain: string[] = ['Name?'];
    defineConversation({
      name: 'plain',
      questions: plain,
      done: (_ctx, answers) => expectTypeOf(answers).toEqualTypeOf<string[]>(),
    });
  });
});
