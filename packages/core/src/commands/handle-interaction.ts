import { randomUUID } from 'node:crypto';
import type { ContextDeps } from '../kernel/base-context.js';
import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import type { PolicyChain } from '../policies/chain.js';
import type { HandlerSteps } from '../policies/steps.js';
import { CommandContextImpl } from './command-context.js';
import { type CommandTarget, commandSteps } from './command-steps.js';
import type { ExhaustedInteraction } from './context.js';
import { routeKey } from './route-key.js';

/** Command routes, keyed by {@link routeKey}. */
export type CommandTable = ReadonlyMap<string, CommandTarget>;

type Ctx = CommandContextImpl<Record<string, unknown>>;

/** A slash command's steps: its raw values are the interaction's, already checked by the platform. */
const steps = (target: CommandTarget): HandlerSteps<Ctx, undefined> =>
  commandSteps<Ctx>(target, (ctx) => ({ ok: true, values: ctx.interaction.command.options }));

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
