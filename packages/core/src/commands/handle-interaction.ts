import { randomUUID } from 'node:crypto';
import type { Interaction } from '@boardbot/protocol';
import type { ContextDeps } from '../kernel/base-context.js';
import type { EventMeta } from '../kernel/event.js';
import type { Class } from '../kernel/metadata.js';
import type { EventKind, KindDefinition, KindHandler, KindHost, KindMethod } from '../policies/kind.js';
import { CommandContextImpl } from './command-context.js';
import { COMMAND_RULES, type CommandTarget, type RawOptionsReader, type RunningCommand } from './command-stages.js';
import type { ExhaustedInteraction } from './context.js';
import { type CommandDescription, type CommandRoute, describeCommand } from './describe.js';
import { routeKey } from './route-key.js';

/** Command routes, keyed by {@link routeKey}. */
export type CommandTable = ReadonlyMap<string, CommandTarget>;

/** What the command kind reads from a method: its route, and its class's whole command. */
export interface CommandMethod extends KindMethod {
  route: CommandRoute;
  /** The `@Command` of its class: what it registers. */
  command: CommandDescription;
}

/** A slash invocation's raw values are the interaction's, already checked by the platform. */
const fromInteraction: RawOptionsReader = (ctx) => ({
  ok: true,
  values: (ctx.interaction as Interaction).command.options,
});

/**
 * Slash commands (`@Command`, `@Subcommand`): an invocation runs its command's method; an unknown
 * command is answered by the runtime.
 * @param onExhausted - what a sixth answer does (`createBot({ exhaustedInteraction })`)
 */
export function commandKind(onExhausted: ExhaustedInteraction): KindDefinition<CommandMethod> {
  return {
    name: 'command',
    decorators: ['@Command'],
    describe: commandMethods,
    create: (host) => new InteractionHandler(host, onExhausted),
  };
}

/**
 * The command methods of a class, as the command kind reads them (none for a class without `@Command`).
 * @param cls - a handler class
 */
export function commandMethods(cls: Class): CommandMethod[] {
  const command = describeCommand(cls);
  return command?.routes.map((route) => ({ method: route.method, route, command })) ?? [];
}

/** The table of the command kind's handlers, by {@link routeKey}. */
export function commandTable(handlers: readonly KindHandler<CommandMethod>[]): CommandTable {
  return new Map(
    handlers.map(({ target, meta: { route } }) => [routeKey(route.command, route.subcommand), { ...target, route }]),
  );
}

/** Handles `interaction.create`: every invocation is routed, if only to be told the command is unknown. */
class InteractionHandler implements EventKind<Interaction> {
  private readonly commands: CommandTable;

  constructor(
    private readonly host: KindHost<CommandMethod>,
    private readonly onExhausted: ExhaustedInteraction,
  ) {
    this.commands = commandTable(host.handlers);
  }

  route(event: Parameters<EventKind['route']>[0]): Interaction | undefined {
    return !event.unknown && event.name === 'interaction.create' ? event.data.interaction : undefined;
  }

  async handle(interaction: Interaction, event: EventMeta): Promise<void> {
    const { name, subcommand } = interaction.command;
    const key = routeKey(name, subcommand);
    const correlationId = randomUUID();
    const log = this.host.env.log.child({
      event_id: event.id,
      correlation_id: correlationId,
      interaction_id: interaction.id,
      command: key,
    });
    const context = (deps: ContextDeps): RunningCommand =>
      new CommandContextImpl(deps, interaction, this.onExhausted) as RunningCommand;
    const request = { rules: COMMAND_RULES, event, log, correlationId, context };
    const target = this.commands.get(key);
    if (target) return this.host.runner.run({ ...request, target, input: fromInteraction });
    log.warn('no handler for this command: is the registered set stale?');
    await this.host.runner.speak({ ...request, label: `/${key}` }, 'boardbot:unknownCommand', { command: `/${key}` });
  }
}
