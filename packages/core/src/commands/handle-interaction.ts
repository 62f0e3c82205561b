import { randomUUID } from 'node:crypto';
import type { Interaction } from '@boardbot/protocol';
import { isReplyBody } from '../kernel/body.js';
import { type CoreEnv, contextDeps } from '../kernel/env.js';
import { HandlerRun } from '../kernel/scope.js';
import { DEFAULT_DENIED_REPLY } from '../policies/guards.js';
import type { EventMeta, PolicedMethod, Policies, Refusals } from '../policies/pipeline.js';
import { CommandContextImpl } from './command-context.js';
import type { CommandContext, ExhaustedInteraction } from './context.js';
import type { CommandRoute } from './describe.js';
import { parseOptions } from './options/parse-options.js';
import { routeKey } from './route-key.js';

/** A command or subcommand method, with its route and policies. */
export type CommandTarget = PolicedMethod & { route: CommandRoute };

/** Command routes, keyed by {@link routeKey}. */
export type CommandTable = ReadonlyMap<string, CommandTarget>;

type Ctx = CommandContextImpl<Record<string, unknown>>;

// A refused command always gets an answer, so the person never waits for nothing.
const refusals: Refusals<CommandContext> = {
  denied: async (ctx, result) => {
    await ctx.reply(typeof result === 'string' ? result : DEFAULT_DENIED_REPLY);
  },
  cooling: async (ctx, waitMs) => {
    const seconds = Math.ceil(waitMs / 1000);
    await ctx.reply(
      `Slow down: /${routeKey(ctx.command.name, ctx.command.subcommand)} can be used again in ${seconds} s.`,
    );
  },
};

/**
 * Handles `interaction.create`: finds the command's method, runs its guards, converts and validates
 * the options (telling the person what is wrong instead of calling the handler), its cooldown and
 * middleware, then the handler; a returned body is the reply.
 */
export class InteractionHandler {
  /**
   * @param env - the bot's environment
   * @param policies - the policy pipeline
   * @param commands - the command table
   * @param onExhausted - what a sixth answer does (`createBot({ exhaustedInteraction })`)
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly policies: Policies,
    private readonly commands: CommandTable,
    private readonly onExhausted: ExhaustedInteraction,
  ) {}

  /** Handles one invocation; never rejects. */
  async handle(event: EventMeta, interaction: Interaction): Promise<void> {
    const { name, subcommand } = interaction.command;
    const key = routeKey(name, subcommand);
    const correlationId = randomUUID();
    const log = this.env.log.child({
      event_id: event.id,
      correlation_id: correlationId,
      interaction_id: interaction.id,
      command: key,
    });
    const target = this.commands.get(key);
    const run = new HandlerRun({
      eventId: event.id,
      keyBasis: event.keyBasis,
      handler: target?.label ?? `/${key}`,
      correlationId,
      log,
      replayed: event.replayed,
      trace: event.trace,
      outcome: event.outcome,
    });
    const ctx: Ctx = new CommandContextImpl(contextDeps(this.env, run), interaction, this.onExhausted);
    if (!target) {
      log.warn('no handler for this command: is the registered set stale?');
      await this.policies.speak(run, ctx, `/${key} is not available right now.`);
      return;
    }
    await this.policies.run(target, run, ctx, ctx, () => this.invoke(target, ctx, key));
  }

  private async invoke(target: CommandTarget, ctx: Ctx, key: string): Promise<void> {
    if (!(await this.policies.passGuards<CommandContext>(target, ctx, refusals))) return;
    const { optionsClass, options } = target.route;
    const parsed = await parseOptions(optionsClass, options, ctx.interaction.command.options);
    if (parsed.unknown.length > 0) ctx.log.debug({ unknown: parsed.unknown }, 'ignored unknown options');
    if (!parsed.ok) {
      ctx.log.info({ problems: parsed.problems }, 'invalid options: told the person, handler not called');
      await ctx.reply(`Sorry, /${key} cannot run:\n${parsed.problems.map((p) => `- ${p}`).join('\n')}`);
      return;
    }
    ctx.setOptions(parsed.value as Record<string, unknown>);
    if (!(await this.policies.passCooldown<CommandContext>(target, ctx, ctx.user.id, refusals))) return;
    await this.policies.around(ctx, async () => {
      const result = await (target.instance[target.method] as Function).call(target.instance, ctx, parsed.value);
      // An abandoned run's returned body is never sent. Its apology may still be on its way back (then
      // `replied` is still false), and a reply would only be refused: the late end is not a failure.
      if (isReplyBody(result) && !ctx.replied && !ctx.signal.aborted) await ctx.reply(result);
    });
    if (!ctx.replied)
      ctx.log.warn({ handler: target.label }, 'command finished without replying: the person sees no answer');
  }
}
