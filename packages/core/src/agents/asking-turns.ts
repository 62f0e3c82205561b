import type { CommandDescription } from '../commands/describe.js';
import type { CommandTable } from '../commands/handle-interaction.js';
import type { CoreEnv } from '../kernel/env.js';
import type { HandlerRun } from '../kernel/run.js';
import type { Runs } from '../policies/stages.js';

/** What the command tools of a turn run through: the bot's commands, as bound for it, and its runner. */
export interface CommandToolHost {
  /** The bot's commands, by route key: the same targets (guards, cooldown) slash and text invocations run. */
  readonly commands: CommandTable;
  readonly runner: Runs;
  /** Each `@Command` class of the bot once, described: what `openBotCommands` lists. */
  readonly described: readonly CommandDescription[];
  /** The bot's REST client, app and logger. */
  readonly env: CoreEnv;
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
 * Remembers the turn a handler's context runs (the `agents()` plugin's stage, as each run opens).
 * @param ctx - the handler's context
 * @param turn - its run and the bot's commands
 */
export function rememberTurn(ctx: object, turn: AskingTurn): void {
  turns.set(ctx, turn);
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
