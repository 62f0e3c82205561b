import type { OptionValue } from '@boardbot/protocol';
import { isReplyBody } from '../kernel/body.js';
import type { HandlerTarget, KindRules, Stage } from '../policies/stages.js';
import type { CommandContext } from './context.js';
import type { CommandRoute } from './describe.js';
import { type ParsedOptions, parseOptions } from './options/parse-options.js';

/** A command or subcommand method, with its route and policies. */
export type CommandTarget = HandlerTarget & { route: CommandRoute };

/** What the stages need of a command context besides its public face, however it was invoked. */
export type RunningCommand = CommandContext & {
  /** Answers sent so far (the runtime compares it around error hooks). */
  readonly answerCount: number;
  /** The command as people type it, for the refusals: `/roll`, `!note add`. */
  readonly shownAs: string;
  /** The converted options, set once they are validated. */
  options: Record<string, unknown>;
  /** Whether a refusal may be posted to the person now (a text command's: at most one a window). */
  mayRefuse(): boolean;
};

/** Tells the person `text`, a refusal, unless the context holds it back. */
async function tell(ctx: RunningCommand, text: string): Promise<void> {
  if (ctx.mayRefuse()) await ctx.reply(text);
}

/** The raw option values of an invocation, or why there are none (each problem a line for the person). */
export type RawOptions =
  | { ok: true; values: Readonly<Record<string, OptionValue>> }
  | { ok: false; problems: string[] };

/** How a command's run reads its raw option values (the interaction's, or its text's): a command run's input. */
export type RawOptionsReader = (ctx: RunningCommand) => RawOptions | Promise<RawOptions>;

/**
 * How a command's runs meet the stages, however it was invoked (slash or text): guards and
 * middleware see its context, its cooldown counts per user, board or app, and a refused command
 * always gets an answer, so the person never waits for nothing. Both ways share the target's
 * cooldown.
 */
export const COMMAND_RULES: KindRules<RunningCommand> = {
  guarded: true,
  answers: true,
  subject: (ctx) => ({ who: ctx.user.id, board: ctx.boardId }),
  refuse: async (ctx, refusal) => {
    if (refusal.reason === 'denied') return tell(ctx, refusal.words ?? ctx.t('boardbot:denied'));
    const seconds = Math.ceil(refusal.waitMs / 1000);
    await tell(ctx, ctx.t('boardbot:cooldown', { command: ctx.shownAs, seconds, count: seconds }));
  },
};

const forCommands = (_target: HandlerTarget, rules: KindRules): boolean => rules === COMMAND_RULES;

/**
 * A command's options, read and then converted and validated by its options class: what its run's
 * options stage does, and what a caller outside the bot checks before asking anyone to approve it.
 * @param route - the command's route: its options and options class
 * @param raw - the invocation's raw values, or why there are none
 */
export async function commandOptions(route: CommandRoute, raw: RawOptions): Promise<ParsedOptions> {
  if (!raw.ok) return { ok: false, problems: raw.problems, unknown: [] };
  return parseOptions(route.optionsClass, route.options, raw.values);
}

/**
 * What the person is told of a command's invalid options (`boardbot:invalidOptions`), one line each.
 * @param t - the translation of the run, or of the bot's default locale
 * @param shownAs - the command as typed
 * @param problems - what is wrong, one line each
 */
export function invalidOptionsText(
  t: (key: string, values: Record<string, string>) => string,
  shownAs: string,
  problems: readonly string[],
): string {
  return t('boardbot:invalidOptions', { command: shownAs, problems: problems.map((p) => `- ${p}`).join('\n') });
}

/** Tells the person why the command cannot run; the handler is not called. */
async function refuse(ctx: RunningCommand, problems: readonly string[]): Promise<false> {
  ctx.log.info({ problems }, 'invalid options: told the person, handler not called');
  await tell(ctx, invalidOptionsText(ctx.t.bind(ctx), ctx.shownAs, problems));
  return false;
}

/**
 * A command's own stages: its options converted and validated (problems told to the person instead
 * of calling the handler), a returned body as the reply, and a warning when it finished without
 * answering.
 */
export const COMMAND_STAGES: readonly Stage[] = [
  {
    name: 'command options',
    phase: 'arguments',
    applies: forCommands,
    async run(pass) {
      const ctx = pass.ctx as RunningCommand;
      const raw = await (pass.input as RawOptionsReader)(ctx);
      const parsed = await commandOptions((pass.target as CommandTarget).route, raw);
      if (parsed.unknown.length > 0) ctx.log.debug({ unknown: parsed.unknown }, 'ignored unknown options');
      if (!parsed.ok) return refuse(ctx, parsed.problems);
      ctx.options = parsed.value as Record<string, unknown>;
      pass.args = [ctx, parsed.value];
    },
  },
  {
    // An abandoned run's returned body is never sent. Its apology may still be on its way back (then
    // `replied` is still false), and a reply would only be refused: the late end is not a failure.
    name: 'command reply',
    phase: 'result',
    applies: forCommands,
    run({ ctx, result }) {
      const command = ctx as RunningCommand;
      if (isReplyBody(result) && !command.replied && !command.signal.aborted)
        return command.reply(result).then(() => {});
    },
  },
  {
    name: 'command answered',
    phase: 'finish',
    applies: forCommands,
    run({ ctx, target }) {
      if (!(ctx as RunningCommand).replied)
        ctx.log.warn({ handler: target.label }, 'command finished without replying: the person sees no answer');
    },
  },
];
