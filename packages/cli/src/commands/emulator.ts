import { dirname, resolve } from 'node:path';
import type { Emulator } from '@boardbot/emulator';
import type { Command } from 'commander';
import { loadConfig } from '../config/load-config.js';
import { ensureStateDir, stateDir } from '../dev/dev-state.js';
import { DEFAULT_DB_PATH } from '../dev/emulator-defaults.js';
import { startEmulator } from '../dev/emulator-start.js';
import type { CliIo } from '../io.js';
import { parsePort } from './shared-options.js';

/** Options of `boardbot emulator`. */
export interface EmulatorCommandOptions {
  /** Interface to bind. @defaultValue `'127.0.0.1'` */
  host: string;
  /** Port; 0 picks a free one. @defaultValue 8787 */
  port: number;
  /** SQLite file, or `:memory:`. @defaultValue `.boardbot/emulator.db` */
  db: string;
  /** Load the default seed. @defaultValue true (`--no-seed` turns it off) */
  seed: boolean;
  /** `-C, --cwd`: the project directory, where `.env` is read and `db` is resolved. @defaultValue the current directory */
  cwd?: string | undefined;
  /** `--env-file`: the `.env` file to read. @defaultValue `.env` in the project directory, if it exists */
  envFile?: string | undefined;
}

/**
 * Starts the emulator and prints where it is; resolves once it listens. `BOARDBOT_TOKEN` (if set, in
 * the environment or else in the project's `.env`, as for every command) is the seeded `dev-bot`
 * app's token, so the bot's `.env` works against it; `BOARDBOT_ADMIN_KEY` likewise the admin key. The first
 * SIGINT or SIGTERM shuts it down cleanly (streams ended, in-flight writes finished, database closed);
 * a second one exits at once.
 *
 * @returns The running emulator and a promise that settles when it has shut down.
 */
export async function runEmulator(
  options: EmulatorCommandOptions,
  io: CliIo,
): Promise<{ emulator: Emulator; stopped: Promise<void> }> {
  const cwd = options.cwd ?? io.cwd ?? process.cwd();
  const config = loadConfig({ envFile: options.envFile }, io.env, cwd);
  const { token, adminKey } = config;
  const db = options.db === ':memory:' ? options.db : resolve(cwd, options.db);
  // The project's .boardbot/ (the default database's directory) is its owner's only.
  if (db !== ':memory:' && dirname(db) === stateDir(cwd)) ensureStateDir(cwd);
  const { emulator, urls } = await startEmulator(
    { db, seed: options.seed, ...(token ? { devToken: token } : {}), ...(adminKey ? { adminKey } : {}) },
    { host: options.host, port: options.port },
    options.db,
    io.env,
  );
  io.out(`boardbot emulator listening (database: ${options.db})`);
  io.out(`  API base URL  ${urls.apiUrl}`);
  io.out(`  Playground    ${urls.playgroundUrl}`);
  io.out(`  Admin key     ${emulator.adminKey}`);
  if (options.seed) {
    io.out(
      `  dev-bot token ${token ? `from BOARDBOT_TOKEN${config.sources.token === '.env' ? ' in .env' : ''}` : `${emulator.devToken} (set BOARDBOT_TOKEN to change it)`}`,
    );
  }
  let stopping = false;
  const stopped = new Promise<void>((resolve) => {
    const exit = (code: number) => {
      off();
      io.exit(code);
      resolve();
    };
    const off = io.onSignal((signal) => {
      if (stopping) {
        io.err(`${signal} again: exiting without waiting.`);
        return exit(1);
      }
      stopping = true;
      io.out(`${signal}: shutting down...`);
      emulator.close().then(
        () => {
          io.out('Stopped.');
          exit(0);
        },
        (err: unknown) => {
          io.err(`Shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
          exit(1);
        },
      );
    });
  });
  // Said only once the handler is in place: a SIGINT sent on seeing this line must find it there.
  io.out('Press Ctrl+C to stop.');
  return { emulator, stopped };
}

/** Adds `boardbot emulator` to the program. */
export function registerEmulatorCommand(program: Command, io: CliIo): void {
  program
    .command('emulator')
    .description('Run the platform emulator: the app API, the gateway, the control API and the playground')
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 8787)
    .option('--db <path>', 'SQLite database file, or :memory:', DEFAULT_DB_PATH)
    .option('--no-seed', 'start without the default users, boards and dev-bot app')
    .option('-C, --cwd <dir>', 'the project directory, where .env is read (default: the current directory)')
    .option('--env-file <path>', 'the .env file to read (default: .env in the project, if present)')
    .action(async (options: EmulatorCommandOptions) => {
      const { stopped } = await runEmulator(options, io);
      await stopped;
    });
}
