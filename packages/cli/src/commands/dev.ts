import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type * as Core from '@boardbot/core';
import type { Emulator, EmulatorUrls } from '@boardbot/emulator';
import { RestClient } from '@boardbot/rest';
import { type Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config/load-config.js';
import { BuildReport } from '../dev/build-report.js';
import { clearDevState, type DevState, ensureStateDir, readDevStates, writeDevState } from '../dev/dev-state.js';
import { DEFAULT_DB_PATH, DEFAULT_DEV_TOKEN } from '../dev/emulator-defaults.js';
import { startEmulator, tightenDatabase } from '../dev/emulator-start.js';
import { GatewayRelay } from '../dev/gateway-relay.js';
import { onePerPress } from '../dev/one-per-press.js';
import { RelayedBot } from '../dev/relayed-bot.js';
import type { BuildResult } from '../dev/watch-compiler.js';
import { type WatchThread, watchInThread } from '../dev/watch-thread.js';
import { ProjectError } from '../errors.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { type ProjectFlags, resolveProject, shown } from '../project/project.js';
import { importFromProject } from '../project/project-modules.js';
import { addConfigOptions, addProjectOptions, type CommonFlags } from './shared-options.js';

/** Flags of `boardbot dev`. */
export interface DevFlags extends Omit<CommonFlags, 'token' | 'apiUrl'>, Pick<ProjectFlags, 'entry' | 'tsconfig'> {
  /** The emulator's interface. @defaultValue `'127.0.0.1'` */
  host?: string;
  /** The emulator's port; 0 picks a free one. @defaultValue 8787 */
  port?: number;
  /** The emulator's SQLite file (relative to the project), or `:memory:`. @defaultValue `.boardbot/emulator.db` */
  db?: string;
  /** The dev-bot app's token. @defaultValue `BOARDBOT_TOKEN`, else `dev-token` */
  token?: string;
}

/** The CLI's own built entry (its package's `bin`), which runs the bot as `boardbot start` in the child process. */
const CLI_BIN = join(dirname(createRequire(import.meta.url).resolve('@boardbot/cli/package.json')), 'dist/bin.js');

/** Defaults of {@link DevFlags}. */
export const DEFAULT_DEV_FLAGS = {
  host: '127.0.0.1',
  port: 8787,
  db: DEFAULT_DB_PATH,
} as const satisfies Required<Pick<DevFlags, 'host' | 'port' | 'db'>>;

/** What a running `boardbot dev` tells its listeners (the tests, or an embedding script). */
export interface DevEvents {
  /** A build (the type check of the whole project) finished. */
  build: [BuildResult];
  /** A saved file's JavaScript was written at once, before its type check: the bot restarts on it. */
  'fast-emit': [{ files: string[] }];
  /** The bot process was started (1 the first time, then once per restart). */
  'bot-start': [{ count: number; pid: number | undefined }];
  /** The bot exited by itself. */
  'bot-exit': [{ code: number | null; signal: NodeJS.Signals | null }];
}

/** A running `boardbot dev`. */
export interface DevSession extends EventEmitter<DevEvents> {
  /** The in-process emulator. */
  readonly emulator: Emulator;
  /** Where the emulator listens. */
  readonly urls: EmulatorUrls;
  /** Stops the watch, the bot and the emulator (in that order). Safe to call twice. */
  stop(): Promise<void>;
  /** Settles once everything has stopped. */
  readonly stopped: Promise<void>;
  /**
   * The gateway connection `dev` holds for the bot: how many times it was opened (one across any
   * number of reloads), and how many events it holds that the bot has not acknowledged.
   */
  gateway(): { connections: number; pending: number };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('Expected a port number from 0 to 65535.');
  return port;
}

/**
 * `boardbot dev`: the emulator in-process with a file database (its state survives restarts of the
 * bot and of `dev`), TypeScript's watch build of the project (decorator metadata included), and the
 * bot as a child process (`boardbot start`, from the bot's definition or its entry, with
 * `BOARDBOT_TOKEN` and `BOARDBOT_API_URL` pointing at the emulator), restarted after each successful
 * build that changed its output. Prints the URLs; the
 * first SIGINT/SIGTERM stops everything cleanly.
 *
 * @param flags - see {@link DevFlags}
 * @param io - output, environment and signals
 * @returns the running session
 */
export async function runDev(flags: DevFlags, io: CliIo): Promise<DevSession> {
  const cwd = flags.cwd ?? io.cwd ?? process.cwd();
  const config = loadConfig(flags, io.env, cwd);
  const project = resolveProject(flags, cwd);
  if (!existsSync(project.tsconfig)) {
    throw new ProjectError(
      `No ${shown(project, project.tsconfig)} in ${project.dir}: \`boardbot dev\` compiles your bot with it. Fix: run ` +
        'the command in your bot project (create one with `npm create boardbot my-bot`), or pass --tsconfig <file>.',
    );
  }
  const host = flags.host ?? DEFAULT_DEV_FLAGS.host;
  const port = flags.port ?? DEFAULT_DEV_FLAGS.port;
  const dbFlag = flags.db ?? DEFAULT_DEV_FLAGS.db;
  const db = dbFlag === ':memory:' ? dbFlag : resolve(project.dir, dbFlag);
  const devToken = config.token ?? DEFAULT_DEV_TOKEN;

  // Private state: the directory is its owner's only before the database is made in it.
  ensureStateDir(project.dir);
  if (db !== ':memory:') tightenDatabase(db);
  const shownDb = db === ':memory:' ? db : shown(project, db);
  const { emulator, urls } = await startEmulator(
    { db, devToken, ...(config.adminKey ? { adminKey: config.adminKey } : {}) },
    { host, port },
    shownDb,
    io.env,
  );

  // `boardbot invoke` finds the emulator here, with no flags (one record per running instance).
  const record: DevState = { controlUrl: urls.controlUrl, adminKey: emulator.adminKey, pid: process.pid, db: shownDb };
  writeDevState(project.dir, record);
  // Reading the records removes those of instances that are gone (a `kill -9` leaves its own).
  readDevStates(project.dir);
  io.out(`boardbot dev: ${project.dir}`);
  io.out(`  Emulator      ${urls.apiUrl}  (database: ${shownDb})`);
  io.out(`  Control API   ${urls.controlUrl}`);
  io.out(`  Playground    ${urls.playgroundUrl}`);
  io.out(`  Admin key     ${emulator.adminKey}`);
  const tokenSource = { flag: '--token', env: 'BOARDBOT_TOKEN', '.env': 'BOARDBOT_TOKEN in .env', default: '' };
  io.out(`  Bot token     ${config.token ? `from ${tokenSource[config.sources.token]}` : devToken} (app dev-bot)`);
  io.out(`Compiling ${shown(project, project.tsconfig)} (watching for changes)...`);

  const events = new EventEmitter<DevEvents>();
  // The bot runs as `boardbot start` would run it: from its definition when the bot module exports
  // one, else its entry; decided afresh in each child, which loads the latest build.
  const entryArgs = flags.entry !== undefined ? ['--entry', project.entry] : [];
  const envArgs = flags.envFile !== undefined ? ['--env-file', resolve(cwd, flags.envFile)] : [];
  const botEnv: NodeJS.ProcessEnv = {
    ...config.fileValues,
    ...io.env,
    BOARDBOT_TOKEN: devToken,
    BOARDBOT_API_URL: urls.apiUrl,
    LOG_LEVEL: config.logLevel,
  };
  const bot = new RelayedBot({
    entry: CLI_BIN,
    args: ['start', '--no-gc-after-start', ...entryArgs, ...envArgs],
    cwd: project.dir,
    // The bot's own .env values come along; the emulator's URL and token win over any production ones.
    env: botEnv,
    output: io.isTTY ? 'inherit' : { out: io.out, err: io.err },
    // The connection the bot processes are fed from, and the resume point where `boardbot start` keeps it.
    relay: async () => {
      const rest = new RestClient({ token: devToken, baseUrl: urls.apiUrl });
      const app = await rest.getApp().finally(() => rest.close());
      const core = await importFromProject<typeof Core>(project.dir, '@boardbot/core', () => import('@boardbot/core'));
      const stateDir = resolve(project.dir, botEnv.BOARDBOT_STATE_DIR ?? '.boardbot');
      const positions = new core.FilePositionStore(stateDir);
      return new GatewayRelay({
        ...{ token: devToken, apiUrl: urls.apiUrl, appId: app.id, positions },
        ...{ log: io.err, out: io.out },
      });
    },
    onUnexpectedExit(code, signal, before) {
      io.err(
        before
          ? `The bot exited (${signal ?? `code ${code}`}) before it started: the one before it goes on. Fix the error above and save: it reloads on the saved code.`
          : `The bot exited (${signal ?? `code ${code}`}). Fix the error above and save: it restarts on the saved code.`,
      );
      events.emit('bot-exit', { code, signal });
    },
  });

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
        const how = flags.entry !== undefined ? ` --entry ${shown(project, project.entry)}` : '';
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
  const onBuild = (result: BuildResult) => {
    events.emit('build', result);
    const runs = aheadOfBuild ? 'saved' : bot.running ? 'last-good' : 'none';
    aheadOfBuild = false;
    for (const line of report.ended(result, runs)) io.err(line);
    if (result.errors > 0) return;
    if (!result.first && result.emitted === 0 && (bot.running || restarting)) return;
    restartBot();
  };
  // A saved file is emitted at once, as the build will emit it, and the bot restarted on it; the build
  // checks the whole project beside it, in its own thread, and restarts nothing more when it writes
  // the same bytes.
  const onFastEmit = (files: string[]) => {
    events.emit('fast-emit', { files });
    if (bot.startCount === 0) return;
    aheadOfBuild = true;
    restartBot();
  };
  let watch: WatchThread | undefined;
  try {
    watch = await watchInThread({
      projectDir: project.dir,
      tsconfig: project.tsconfig,
      onDiagnostic: (d) => report.diagnostic(d),
      onBuild,
      onFastEmit,
      onFailure: (error) =>
        io.err(
          `The watch build stopped: ${error.message}. The bot keeps running; restart \`boardbot dev\` to build again.`,
        ),
    });
  } catch (error) {
    clearDevState(project.dir, record);
    await emulator.close();
    throw error;
  }
  const thread = watch;

  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((r) => {
    resolveStopped = r;
  });
  let off: () => void = () => {};
  let stopPromise: Promise<void> | undefined;
  const stopAll = () => {
    stopPromise ??= (async () => {
      stopping = true;
      try {
        await thread.close();
        await queue;
        await bot.stop();
        await emulator.close();
      } finally {
        clearDevState(project.dir, record);
      }
    })();
    return stopPromise;
  };
  const stop = () =>
    stopAll().finally(() => {
      off();
      resolveStopped();
    });
  let signals = 0;
  const pressed = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      // A person who presses Ctrl-C twice does not want to wait; the bot stops itself when the IPC
      // channel closes.
      io.err(`${signal} again: exiting without waiting.`);
      process.exit(130);
    }
    io.out(`${signal}: stopping the bot and the emulator...`);
    const finish = (code: number) => {
      io.exit(code);
      off();
      resolveStopped();
    };
    stopAll().then(
      () => {
        io.out('Stopped.');
        finish(EXIT_CODES.ok);
      },
      (error: unknown) => {
        io.err(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        finish(EXIT_CODES.failure);
      },
    );
  };
  // One Ctrl-C may arrive twice (npm passes the terminal's on): see onePerPress.
  off = io.onSignal(onePerPress(pressed));

  return Object.assign(events, {
    emulator,
    urls,
    stop,
    stopped,
    gateway: () => ({ connections: bot.connections, pending: bot.pending }),
  });
}

/**
 * Adds `boardbot dev` to the program.
 *
 * @param program - the `boardbot` program
 * @param io - output, environment and signals
 */
export function registerDevCommand(program: Command, io: CliIo): void {
  const dev = program
    .command('dev')
    .description(
      'Develop: the emulator (state kept in .boardbot/), a watch build of the project, and the bot, restarted on each change',
    )
    .option('--host <host>', 'the emulator interface to bind', DEFAULT_DEV_FLAGS.host)
    .option('--port <port>', 'the emulator port (0 picks a free one)', parsePort, DEFAULT_DEV_FLAGS.port)
    .option('--db <path>', 'the emulator SQLite file, or :memory:', DEFAULT_DEV_FLAGS.db)
    .option('--token <token>', "the dev-bot app's token (default: BOARDBOT_TOKEN, else dev-token)");
  addProjectOptions(addConfigOptions(dev, { token: false, apiUrl: false }), ['entry', 'tsconfig']).action(
    async (flags: DevFlags) => {
      const session = await runDev(flags, io);
      await session.stopped;
    },
  );
}
