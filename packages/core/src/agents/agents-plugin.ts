import { type CommandMethod, type CommandTable, commandMethods, commandTable } from '../commands/handle-interaction.js';
import type { AnyContext } from '../kernel/context.js';
import type { HandlerRun } from '../kernel/run.js';
import type { Plugin } from '../plugins/plugin.js';
import type { KindDefinition } from '../policies/kind.js';
import type { Runs, Stage } from '../policies/stages.js';
import { ApproveCommand, DenyCommand } from './approval-commands.js';

/** What the command tools of a turn run through: the bot's commands, as bound for it, and its runner. */
export interface CommandToolHost {
  /** The bot's commands, by route key: the same targets (guards, cooldown) slash and text invocations run. */
  readonly commands: CommandTable;
  readonly runner: Runs;
}

/** An asking person's turn: the run of the handler's context, and its bot's command tool host. */
export interface AskingTurn {
  readonly run: HandlerRun;
  readonly host: CommandToolHost;
}

// By context, while its run goes (weak: nothing outlives the context). A context belongs to one bot,
// so one map serves every bot of the process.
const turns = new WeakMap<object, AskingTurn>();

/**
 * The turn a handler's context is running, once `agents()` is among the bot's plugins.
 * @param ctx - a message listener's or a command's context
 */
export function askingTurn(ctx: object): AskingTurn | undefined {
  return turns.get(ctx);
}

/**
 * Lets `to` (a context made for the asking person inside another run: a resumed turn's) run the
 * turn `from` runs: the same run (its keys) and the same commands.
 * @param from - the running handler's context
 * @param to - the context acting for the asker in that run
 */
export function shareTurn(from: object, to: object): void {
  const turn = turns.get(from);
  if (turn) turns.set(to, turn);
}

/**
 * A kind that handles no event: it reads the `@Command` classes as the command kind does, so its
 * handlers are the bot's own command targets (same instance, guards and cooldown), and hands them to
 * the command tools.
 */
function commandToolsKind(bound: { host?: CommandToolHost }): KindDefinition<CommandMethod> {
  return {
    name: 'command tools',
    decorators: [],
    describe: commandMethods,
    create: (host) => {
      bound.host = { commands: commandTable(host.handlers), runner: host.runner };
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
      if (bound.host) turns.set(ctx, { run, host: bound.host });
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
