import type { OptionValue } from '@boardbot/protocol';
import { isReplyBody } from '../kernel/body.js';
import type { HandlerSteps, HandlerTarget } from '../policies/steps.js';
import type { CommandContext } from './context.js';
import type { CommandRoute } from './describe.js';
import { parseOptions } from './options/parse-options.js';

/** A command or subcommand method, with its route and policies. */
export type CommandTarget = HandlerTarget & { route: CommandRoute };

/** What the steps need of a command context besides its public face, however it was invoked. */
export type RunningCommand = CommandContext & {
  /** Answers sent so far (the runtime compares it around error hooks). */
  readonly answerCount: number;
  /** The command as people type it, for the refusals: `/roll`, `!note add`. */
  readonly shownAs: string;
  /** The converted options, set once they are validated. */
  options: Record<string, unknown>;
};

/** The raw option values of an invocation, or why there are none (each problem a line for the person). */
export type RawOptions =
  | { ok: true; values: Readonly<Record<string, OptionValue>> }
  | { ok: false; problems: string[] };

/** Whether a refusal may be posted to the person now (text commands: at most one a window); none: always. */
export type RefusalGate<C> = ((ctx: C) => boolean) | undefined;

/** Tells the person `text` unless the gate holds the refusal back. */
async function tell<C extends RunningCommand>(ctx: C, gate: RefusalGate<C>, text: string): Promise<void> {
  if (gate === undefined || gate(ctx)) await ctx.reply(text);
}

/**
 * A command's steps, the same for a slash and a text invocation: every one of the chain's. A refused
 * command always gets an answer, so the person never waits for nothing; options that do not convert
 * or validate are told to the person instead of calling the handler; a returned body is the reply.
 * The cooldown is the target's, so both ways of invoking a command count against one cooldown.
 *
 * @param target - the command's method
 * @param rawOptions - reads the invocation's raw values (the interaction's, or the parsed text)
 * @param gate - whether a refusal may be posted now (a text command's: at most one a window per person)
 */
export function commandSteps<C extends RunningCommand>(
  target: CommandTarget,
  rawOptions: (ctx: C) => RawOptions | Promise<RawOptions>,
  gate?: RefusalGate<C>,
): HandlerSteps<C, undefined> {
  /** Tells the person why the command cannot run; the handler is not called. */
  const refuse = async (ctx: C, problems: readonly string[]): Promise<undefined> => {
    ctx.log.info({ problems }, 'invalid options: told the person, handler not called');
    const lines = problems.map((p) => `- ${p}`).join('\n');
    await tell(ctx, gate, ctx.t('boardbot:invalidOptions', { command: ctx.shownAs, problems: lines }));
    return undefined;
  };
  return {
    guards: {
      context: (ctx) => ctx,
      denied: (ctx, result) => tell(ctx, gate, typeof result === 'string' ? result : ctx.t('boardbot:denied')),
    },
    arguments: async (ctx) => {
      const raw = await rawOptions(ctx);
      if (!raw.ok) return refuse(ctx, raw.problems);
      const { optionsClass, options } = target.route;
      const parsed = await parseOptions(optionsClass, options, raw.values);
      if (parsed.unknown.length > 0) ctx.log.debug({ unknown: parsed.unknown }, 'ignored unknown options');
      if (!parsed.ok) return refuse(ctx, parsed.problems);
      ctx.options = parsed.value as Record<string, unknown>;
      return [ctx, parsed.value];
    },
    cooldown: {
      who: (ctx) => ctx.user.id,
      board: (ctx) => ctx.boardId,
      cooling: async (ctx, waitMs) => {
        const seconds = Math.ceil(waitMs / 1000);
        await tell(ctx, gate, ctx.t('boardbot:cooldown', { command: ctx.shownAs, seconds, count: seconds }));
      },
    },
    middleware: (ctx) => ctx,
    // An abandoned run's returned body is never sent. Its apology may still be on its way back (then
    // `replied` is still false), and a reply would only be refused: the late end is not a failure.
    settle: async (ctx, result) => {
      if (isReplyBody(result) && !ctx.replied && !ctx.signal.aborted) await ctx.reply(result);
    },
    finished: (ctx) => {
      if (!ctx.replied)
        ctx.log.warn({ handler: target.label }, 'command finished without replying: the person sees no answer');
    },
    answer: (ctx) => ctx,
  };
}
