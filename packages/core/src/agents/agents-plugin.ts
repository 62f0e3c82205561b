import { type CommandMethod, commandMethods, commandTable } from '../commands/handle-interaction.js';
import type { AnyContext } from '../kernel/context.js';
import type { HandlerRun } from '../kernel/run.js';
import type { Plugin } from '../plugins/plugin.js';
import type { KindDefinition } from '../policies/kind.js';
import type { Stage } from '../policies/stages.js';
import { ApproveCommand, DenyCommand } from './approval-commands.js';
import { type CommandToolHost, rememberTurn } from './asking-turns.js';

/**
 * A kind that handles no event: it reads the `@Command` classes as the command kind does, so its
 * handlers are the bot's own command targets (same instance, guards and cooldown), and hands them to
 * the command tools (an assistant's, or `openBotCommands`').
 * @param bound - where the host is set when the bot builds its kinds
 */
export function commandToolsKind(bound: { host?: CommandToolHost }): KindDefinition<CommandMethod> {
  return {
    name: 'command tools',
    decorators: [],
    describe: commandMethods,
    create: (host) => {
      const described = [...new Set(host.handlers.map((h) => h.meta.command))];
      bound.host = { commands: commandTable(host.handlers), runner: host.runner, described, env: host.env };
      return { route: () => undefined, handle: async () => {} };
    },
  };
}

/**
 * Remembers the turn of each context that can ask (message listeners, commands): a turn's tools run
 * their commands under keys derived from its run.
 */
function rememberTurns(bound: { host?: CommandToolHost }): Stage {
  return {
    name: 'command tools: the asking run',
    phase: 'open',
    applies: (_target, rules) => rules.answers === true && rules.guarded === true,
    run({ ctx, run }: { ctx: AnyContext; run: HandlerRun }) {
      if (bound.host) rememberTurn(ctx, { run, host: bound.host });
    },
  };
}

/**
 * The plugin that lets an assistant run the bot's commands as its model's tools (`commandTools`),
 * as the asking person, and gives approvers the commands `/approve` and `/deny` (also as text,
 * `!approve`), which answer the pending requests of the bot's agents: `createBot({ plugins: [agents()] })`.
 * @returns the plugin
 */
export function agents(): Plugin {
  // Set when the bot builds its kinds, before any run.
  const bound: { host?: CommandToolHost } = {};
  return {
    name: '@boardbot/core/agents',
    handlers: [ApproveCommand, DenyCommand],
    kinds: [commandToolsKind(bound)],
    stages: [rememberTurns(bound)],
  };
}
