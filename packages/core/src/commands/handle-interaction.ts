import { randomUUID } from 'node:crypto';
import type { ContextDeps } from '../kernel/base-context.js';
import { isReplyBody } from '../kernel/body.js';
import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import type { PolicyChain } from '../policies/chain.js';
import type { HandlerSteps, HandlerTarget } from '../policies/steps.js';
import { CommandContextImpl } from './command-context.js';
import type { ExhaustedInteraction } from './context.js';
import type { CommandRoute } from './describe.js';
import { parseOptions } from './options/parse-options.js';
import { routeKey } from './route-key.js';

/** A command or subcommand method, with its route and policies. */
export type CommandTarget = HandlerTarget & { route: CommandRoute };

/** Command routes, keyed by {@link routeKey}. */
export type CommandTable = ReadonlyMap<string, CommandTarget>;

type Ctx = CommandContextImpl<Record<string, unknown>>;

const slash = (ctx: Ctx) => `/${routeKey(ctx.command.name, ctx.command.subcommand)}`;

/**
 * A command's steps: every one of the chain's. A refused command always gets an answer, so the
 * person never waits for nothing; options that do not convert or validate are told to the person
 * instead of calling the handler; a returned body is the reply.
 */
const steps = (target: CommandTarget): HandlerSteps<Ctx, undefined> => ({
  guards: {
    context: (ctx) => ctx,
    denied: async (ctx, result) => {
      await ctx.reply(typeof result === 'string' ? result : ctx.t('boardbot:denied'));
    },
  },
  arguments: async (ctx) => {
    const { optionsClass, options } = target.route;
    const parsed = await parseOptions(optionsClass, options, ctx.interaction.command.options);
    if (parsed.unknown.length > 0) ctx.log.debug({ unknown: parsed.unknown }, 'ignored unknown options');
    if (!parsed.ok) {
      ctx.log.info({ problems: parsed.problems }, 'invalid options: told the person, handler not called');
      const problems = parsed.problems.map((p) => `- ${p}`).join('\n');
      await ctx.reply(ctx.t('boardbot:invalidOptions', { command: slash(ctx), problems }));
      return undefined;
    }
    ctx.setOptions(parsed.value as Record<string, unknown>);
    return [ctx, parsed.value];
  },
  cooldown: {
    who: (ctx) => ctx.user.id,
    board: (ctx) => ctx.boardId,
    cooling: async (ctx, waitMs) => {
      const seconds = Math.ceil(waitMs / 1000);
      await ctx.reply(ctx.t('boardbot:cooldown', { command: slash(ctx), seconds, count: seconds }));
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
});

/**
 * Handles `interaction.create`: finds the command's method and runs it through the policy chain;
 * an unknown command is answered by the runtime.
 */
export class InteractionHandler {
  private readonly steps = new Map<CommandTarget, HandlerSteps<Ctx, undefined>>();

  /**
   * @param env - the bot's environment
   * @param chain - the policy chain
   * @param commands - the command table
   * @param onExhausted - what a sixth answer does (`createBot({ exhaustedInteraction })`)
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly chain: PolicyChain,
    private readonly commands: CommandTable,
    private readonly onExhausted: ExhaustedInteraction,
  ) {
    for (const target of commands.values()) this.steps.set(target, steps(target));
  }

  /** Whether the event is an invocation: every one is answered, if only to say the command is unknown. */
  handles(event: BotEvent): boolean {
    return !event.unknown && event.name === 'interaction.create';
  }

  /** Handles an invocation (other events are not this kind's); never rejects. */
  async handle(dispatched: BotEvent, event: EventMeta): Promise<void> {
    if (dispatched.unknown || dispatched.name !== 'interaction.create') return;
    const interaction = dispatched.data.interaction;
    const { name, subcommand } = interaction.command;
    const key = routeKey(name, subcommand);
    const correlationId = randomUUID();
    const log = this.env.log.child({
      event_id: event.id,
      correlation_id: correlationId,
      interaction_id: interaction.id,
      command: key,
    });
    const context = (deps: ContextDeps): Ctx => new CommandContextImpl(deps, interaction, this.onExhausted);
    const target = this.commands.get(key);
    const found = target && this.steps.get(target);
    if (target && found) return this.chain.run(found, target, event, { log, correlationId }, context, undefined);
    log.warn('no handler for this command: is the registered set stale?');
    const { run, deps } = this.chain.open(event, { handler: `/${key}`, log, correlationId });
    await this.chain.speak(run, context(deps), 'boardbot:unknownCommand', { command: `/${key}` });
  }
}
