import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { loadConfig } from '../config/load-config.js';
import { ConfigError, MissingTokenError } from '../errors.js';
import type { CliIo } from '../io.js';
import { type ProjectFlags, requireBuilt, resolveProject } from '../project/project.js';
import { collectStartGarbage } from './collect-start-garbage.js';
import { addConfigOptions, addProjectOptions, type CommonFlags, parsePort } from './shared-options.js';

/** Flags of `boardbot start`. */
export interface StartFlags extends CommonFlags, Pick<ProjectFlags, 'entry'> {
  /** `--health-port`: serve `/healthz`, `/readyz` and `/metrics` there (`BOARDBOT_HEALTH_PORT`). */
  healthPort?: number | undefined;
  /** `--health-host`: the interface of the health endpoint (`BOARDBOT_HEALTH_HOST`). @defaultValue `127.0.0.1` */
  healthHost?: string | undefined;
  /** `--redis <url>`: run as one replica of several sharing this Redis (sets `BOARDBOT_REDIS_URL`). */
  redis?: string | undefined;
  /**
   * `--no-gc-after-start` sets it `false`: no full garbage collection once the entry has loaded.
   * @defaultValue `true`
   */
  gcAfterStart?: boolean | undefined;
}

/**
 * `boardbot start`: production, no emulator. Resolves the configuration (flags > environment >
 * `.env`), fails fast without a token, puts the values in `process.env` where the bot's entry reads
 * them (`.env` never overrides the environment), then runs the built entry in this process, so the
 * runtime's own SIGINT/SIGTERM handling stops it gracefully. With `--redis` (or `BOARDBOT_REDIS_URL`)
 * the bot runs as a replica: `createBot` loads `@boardbot/redis` for it (docs/scaling.md). Once the
 * entry has loaded (an entry that awaits `bot.start()`: once the bot is ready), one full garbage
 * collection gives back the memory the start used ({@link collectStartGarbage}), unless
 * `--no-gc-after-start`.
 *
 * @param flags - see {@link StartFlags}
 * @param io - output and environment; `io.env` receives the configuration
 */
export async function runStart(flags: StartFlags, io: CliIo): Promise<void> {
  const cwd = flags.cwd ?? io.cwd ?? process.cwd();
  const config = loadConfig(flags, io.env, cwd);
  if (!config.token) throw new MissingTokenError('boardbot start');
  const project = resolveProject(flags, cwd);
  requireBuilt(project, project.entry, "The bot's entry", '--entry');
  for (const [key, value] of Object.entries(config.fileValues)) {
    if (io.env[key] === undefined) io.env[key] = value;
  }
  io.env.BOARDBOT_TOKEN = config.token;
  io.env.BOARDBOT_API_URL = config.apiUrl;
  io.env.LOG_LEVEL = config.logLevel;
  // createBot reads these when the bot's code gives no `health` option of its own.
  if (flags.healthPort !== undefined) io.env.BOARDBOT_HEALTH_PORT = String(flags.healthPort);
  if (flags.healthHost !== undefined) io.env.BOARDBOT_HEALTH_HOST = flags.healthHost;
  if (flags.redis !== undefined) {
    if (!/^rediss?:\/\/[^\s]+$/.test(flags.redis)) {
      throw new ConfigError(
        '--redis must be a Redis URL such as redis://127.0.0.1:6379 (or rediss:// for TLS), shared by every replica of the bot.',
      );
    }
    io.env.BOARDBOT_REDIS_URL = flags.redis;
  }
  // The bot may read files relative to its directory, as it would when started there.
  if (process.cwd() !== project.dir) process.chdir(project.dir);
  await import(pathToFileURL(project.entry).href);
  if (flags.gcAfterStart !== false) collectStartGarbage();
}

/**
 * Adds `boardbot start` to the program.
 *
 * @param program - the `boardbot` program
 * @param io - output and environment
 */
export function registerStartCommand(program: Command, io: CliIo): void {
  const start = program
    .command('start')
    .description(
      'Run the built bot in production (no emulator): needs BOARDBOT_TOKEN; build first with `npm run build`',
    );
  addProjectOptions(addConfigOptions(start), ['entry'])
    .option(
      '--health-port <port>',
      'serve /healthz, /readyz and /metrics on this port (default: BOARDBOT_HEALTH_PORT)',
      parsePort,
    )
    .option(
      '--health-host <host>',
      'the interface of the health endpoint (default: BOARDBOT_HEALTH_HOST, else 127.0.0.1)',
    )
    .option(
      '--redis <url>',
      'run as one replica of several sharing this Redis (default: BOARDBOT_REDIS_URL; needs @boardbot/redis)',
    )
    .option(
      '--no-gc-after-start',
      'skip the one full garbage collection that gives back the memory the start used, once the entry has loaded',
    )
    .action((flags: StartFlags) => runStart(flags, io));
}
