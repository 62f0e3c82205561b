import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config/load-config.js';
import { devBot } from '../dev/dev-bot.js';
import type { DevEvents, DevSession } from '../dev/dev-session.js';
import { clearDevState, type DevState, ensureStateDir, readDevStates, writeDevState } from '../dev/dev-state.js';
import { stopOnSignals } from '../dev/dev-stop.js';
import { DEFAULT_DB_PATH, DEFAULT_DEV_TOKEN } from '../dev/emulator-defaults.js';
import { startEmulator, tightenDatabase } from '../dev/emulator-start.js';
import { reloadOnChanges } from '../dev/reloads.js';
import { type WatchThread, watchInThread } from '../dev/watch-thread.js';
import { ProjectError } from '../errors.js';
import type { CliIo } from '../io.js';
import { type ProjectFlags, resolveProject, shown } from '../project/project.js';
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

/** Defaults of {@link DevFlags}. */
export const DEFAULT_DEV_FLAGS = {
  host: '127.0.0.1',
  port: 8787,
  db: DEFAULT_DB_PATH,
} as const satisfies Required<Pick<DevFlags, 'host' | 'port' | 'db'>>;

export type { DevEvents, DevSession } from '../dev/dev-session.js';

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
  const bot = devBot({
    project,
    entryFlag: flags.entry !== undefined,
    envFile: flags.envFile !== undefined ? resolve(cwd, flags.envFile) : undefined,
    ...{ config, io, apiUrl: urls.apiUrl, devToken },
    onExit: (code, signal) => events.emit('bot-exit', { code, signal }),
  });
  const reloads = reloadOnChanges({ bot, project, entryFlag: flags.entry !== undefined, io, events });
  let watch: WatchThread | undefined;
  try {
    watch = await watchInThread({
      projectDir: project.dir,
      tsconfig: project.tsconfig,
      onDiagnostic: reloads.onDiagnostic,
      onBuild: reloads.onBuild,
      onBuildStart: () => events.emit('build-start'),
      onFastEmit: reloads.onFastEmit,
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
  const { stop, stopped } = stopOnSignals(io, async () => {
    reloads.stop();
    try {
      await thread.close();
      await reloads.idle();
      await bot.stop();
      await emulator.close();
    } finally {
      clearDevState(project.dir, record);
    }
  });

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
