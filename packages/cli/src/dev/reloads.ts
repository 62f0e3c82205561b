import type { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import type { CliIo } from '../io.js';
import { type BotProject, shown } from '../project/project.js';
import { BuildReport } from './build-report.js';
import type { DevEvents } from './dev-session.js';
import type { RelayedBot } from './relayed-bot.js';
import type { BuildResult } from './watch-compiler.js';

/** What {@link reloadOnChanges} reloads, and where it tells it. */
export interface ReloadsOptions {
  /** The bot it restarts. */
  bot: RelayedBot;
  /** The bot's project (its built entry and bot module). */
  project: BotProject;
  /** Whether `--entry` was given (said in the reload line). */
  entryFlag: boolean;
  /** Where the reloads and the builds are reported. */
  io: CliIo;
  /** The session's events (`build`, `fast-emit`, `bot-start`). */
  events: EventEmitter<DevEvents>;
}

/** When `boardbot dev` reloads the bot: the watch threads' callbacks, and how to stop reloading. */
export interface Reloads {
  /** A diagnostic of the type check. */
  onDiagnostic(text: string): void;
  /** A build ended. */
  onBuild(result: BuildResult): void;
  /** A saved file's JavaScript was written at once. */
  onFastEmit(files: string[]): void;
  /** Starts no bot from now on. */
  stop(): void;
  /** Settles once the reload running or queued now has ended. */
  idle(): Promise<void>;
}

/**
 * Reloads the bot after the first good build, after each save's fast emit, and after a build that
 * changed what the bot runs; one reload after the other, so two quick saves never start two bots.
 *
 * @param options - see {@link ReloadsOptions}
 */
export function reloadOnChanges(options: ReloadsOptions): Reloads {
  const { bot, project, io, events } = options;
  let queue = Promise.resolve();
  let stopping = false;
  // Whether the bot already runs code saved since the last build (a fast emit restarted it).
  let aheadOfBuild = false;
  let restartQueued = false;
  // A restart queued or running: the bot is being replaced, not missing (a swapping relayed bot has
  // no running process for a moment, and a build that changed nothing must not restart it again).
  let restarting = false;
  const restartBot = () => {
    // Restarts run one after the other, so two quick saves never start two bots; saves while one
    // waits are in the restart it waits for.
    if (restartQueued) return;
    restartQueued = true;
    restarting = true;
    queue = queue
      .then(async () => {
        restartQueued = false;
        if (stopping) return;
        if (!existsSync(project.entry) && !existsSync(project.botModule)) {
          io.err(
            `The build has no ${shown(project, project.entry)} nor ${shown(project, project.botModule)}. Fix: export the ` +
              'bot\'s definition from src/bot.ts, set "main" in package.json to the built entry, or pass --entry <file>.',
          );
          return;
        }
        const how = options.entryFlag ? ` --entry ${shown(project, project.entry)}` : '';
        io.out(`${bot.startCount === 0 ? 'Starting' : 'Reloading'} the bot: boardbot start${how}`);
        const took = await bot.restart().catch((error: unknown) => {
          io.err(`The bot could not be fed: ${error instanceof Error ? error.message : String(error)}`);
          return false;
        });
        if (took) events.emit('bot-start', { count: bot.startCount, pid: bot.pid });
      })
      .finally(() => {
        restarting = restartQueued;
      });
  };
  const report = new BuildReport();
  return {
    onDiagnostic: (text) => report.diagnostic(text),
    onBuild(result) {
      events.emit('build', result);
      // The save's fast emit and this build run in two threads, and either may report first: a failed
      // build that the fast emit writes alone leaves the bot on the saved code, even when the emit's
      // restart comes after this report.
      const savedRuns = !result.first && result.emittable && bot.startCount > 0;
      const runs = aheadOfBuild || savedRuns ? 'saved' : bot.running ? 'last-good' : 'none';
      aheadOfBuild = false;
      for (const line of report.ended(result, runs)) io.err(line);
      if (result.errors > 0) return;
      if (!result.first && result.emitted === 0 && (bot.running || restarting)) return;
      restartBot();
    },
    // A saved file is emitted at once (in a thread of its own, even while a type check runs), as the
    // build will emit it, and the bot restarted on it; the build checks the whole project beside it,
    // in its own thread, restarts nothing more when it writes the same bytes, and never writes the
    // output of a file saved again after it read it.
    onFastEmit(files) {
      events.emit('fast-emit', { files });
      if (bot.startCount === 0) return;
      aheadOfBuild = true;
      restartBot();
    },
    stop() {
      stopping = true;
    },
    idle: () => queue,
  };
}
