import { pathToFileURL } from 'node:url';
import type * as Redis from '@boardbot/redis';
import { type Command, Option } from 'commander';
import { type CliConfig, CONFIG_KEYS, loadConfig } from '../config/load-config.js';
import { IpcSource } from '../dev/ipc-source.js';
import { isRelayMessage, type ToBot } from '../dev/relay-messages.js';
import { ConfigError, MissingTokenError } from '../errors.js';
import type { CliIo } from '../io.js';
import { LoggedFailure, logsErrors } from '../logged-failure.js';
import { type LoadedDefinition, loadDefinition } from '../project/load-bot-module.js';
import { loadOptional } from '../project/optional-package.js';
import { type ProjectFlags, requireBuilt, resolveProject } from '../project/project.js';
import { collectStartGarbage } from './collect-start-garbage.js';
import { addConfigOptions, addProjectOptions, parsePort } from './shared-options.js';
import { type HostStartFlags, runHostStart } from './start-host.js';

/** Flags of `boardbot start`: those of `--host` (the health endpoint, the replicas' Redis), `--entry` and its own. */
export interface StartFlags extends Omit<HostStartFlags, 'host'>, Pick<ProjectFlags, 'entry'> {
  /** `--host <file>`: run every app the file lists in one process (see `runHostStart`). */
  host?: string | undefined;
  /**
   * `--no-gc-after-start` sets it `false`: no full garbage collection once the entry has loaded.
   * @defaultValue `true`
   */
  gcAfterStart?: boolean | undefined;
  /**
   * `--dev-relay` (hidden; `boardbot dev` passes it to the bot process it runs): a bot made from its
   * definition is fed by the gateway connection `dev` holds, over the IPC channel (an {@link IpcSource});
   * one run from its entry, or with a source of its own, connects itself once `dev` says the process
   * before it stopped.
   */
  devRelay?: boolean | undefined;
}

/** The settings `start` gives a bot made from its definition as options, not through `process.env`. */
const PASSED_AS_OPTIONS = [...Object.values(CONFIG_KEYS).map((key) => key.env), 'BOARDBOT_REDIS_URL'];

/**
 * `boardbot start`: production, no emulator. Resolves the configuration (flags > environment >
 * `.env`), fails fast without a token, and puts the `.env` values the environment lacks in
 * `process.env` (for the bot's own settings, as `node --env-file` would; for a definition, not the
 * CLI's own, which it passes as options). When the built bot module
 * exports the bot's definition (`export default defineBot({...})`), it creates the bot from it and
 * gives it the configuration as options: the token, the API URL, the log level, `--health-port` and,
 * with `--redis` (or `BOARDBOT_REDIS_URL`), a replica adapter from `@boardbot/redis`
 * (docs/scaling.md). Otherwise (or with `--entry`) it runs the built entry, which creates the bot
 * itself from `BOARDBOT_TOKEN`, `BOARDBOT_API_URL`, `LOG_LEVEL`, `BOARDBOT_HEALTH_*` and
 * `BOARDBOT_REDIS_URL`, set in `process.env` for it. Either way the bot runs in this process, so the
 * runtime's own SIGINT/SIGTERM handling stops it gracefully. Once the bot has started, one full
 * garbage collection gives back the memory the start used ({@link collectStartGarbage}), unless
 * `--no-gc-after-start`.
 *
 * @param flags - see {@link StartFlags}
 * @param io - output and environment; `io.env` receives the `.env` values (and, for an entry, the configuration)
 */
export async function runStart(flags: StartFlags, io: CliIo): Promise<void> {
  if (flags.redis !== undefined && !/^rediss?:\/\/[^\s]+$/.test(flags.redis)) {
    throw new ConfigError(
      '--redis must be a Redis URL such as redis://127.0.0.1:6379 (or rediss:// for TLS), shared by every replica of the bot.',
    );
  }
  if (flags.host !== undefined) {
    await runHostStart({ ...flags, host: flags.host }, io);
    if (flags.gcAfterStart !== false) collectStartGarbage();
    return;
  }
  if (flags.replicaId !== undefined || flags.hostName !== undefined) {
    throw new ConfigError(
      '--replica-id and --host-name name a replica of a host of apps: they go with --host <file> --redis <url>.',
    );
  }
  const cwd = flags.cwd ?? io.cwd ?? process.cwd();
  const config = loadConfig(flags, io.env, cwd);
  if (!config.token) throw new MissingTokenError('boardbot start');
  const project = resolveProject(flags, cwd);
  const definition = flags.entry === undefined ? await loadDefinition(project) : undefined;
  if (!definition) requireBuilt(project, project.entry, "The bot's entry", '--entry');
  // The bot's own settings in .env reach its code as `node --env-file` puts them (never over the
  // environment); the CLI's own are given to a bot made from its definition as options instead.
  const passed: readonly string[] = definition ? PASSED_AS_OPTIONS : [];
  for (const [key, value] of Object.entries(config.fileValues)) {
    if (io.env[key] === undefined && !passed.includes(key)) io.env[key] = value;
  }
  // The bot may read files relative to its directory, as it would when started there.
  if (process.cwd() !== project.dir) process.chdir(project.dir);
  const fedByDev = flags.devRelay === true && definition !== undefined && !ownSource(definition, flags);
  if (flags.devRelay === true && !fedByDev) await ownGatewayAfterDev();
  if (definition) {
    const redisUrl = flags.redis ?? (io.env.BOARDBOT_REDIS_URL || config.fileValues.BOARDBOT_REDIS_URL || undefined);
    const source = fedByDev ? new IpcSource(process) : undefined;
    await startDefinition(definition, config, { ...flags, redisUrl, source });
  } else {
    writeEntryEnvironment(flags, config, io.env);
    await import(pathToFileURL(project.entry).href);
  }
  if (flags.gcAfterStart !== false) collectStartGarbage();
}

/**
 * Creates the bot from its definition and starts it, giving it the CLI's configuration as options
 * (never through `process.env`): the token and the API URL, the log level, the health endpoint and
 * a replica adapter, each unless the definition set it itself. The runtime then owns the process's
 * signals, as a bot's entry would.
 *
 * @param loaded - the definition and the project's core
 * @param config - the resolved configuration (flags, environment, `.env`)
 * @param start - the flags (health) and the Redis URL (`--redis`, else `BOARDBOT_REDIS_URL`)
 */
async function startDefinition(
  { definition, core }: LoadedDefinition,
  config: CliConfig,
  start: StartFlags & { redisUrl: string | undefined; source: IpcSource | undefined },
): Promise<void> {
  const own = definition.options;
  const health =
    start.healthPort === undefined
      ? undefined
      : { port: start.healthPort, ...(start.healthHost !== undefined && { host: start.healthHost }) };
  const scale =
    start.redisUrl && own.scale === undefined
      ? (await loadOptional<typeof Redis>('@boardbot/redis', '--redis')).redis({ url: start.redisUrl })
      : undefined;
  const bot = core.createBot(definition, {
    ...(own.token === undefined && config.token !== undefined && { token: config.token }),
    ...(own.apiUrl === undefined && { apiUrl: config.apiUrl }),
    ...(own.logger === undefined && { logger: { level: config.logLevel } }),
    ...(own.health === undefined && health && { health }),
    ...(scale && { scale }),
    ...(start.source && { source: start.source }),
  });
  try {
    await bot.start();
  } catch (error) {
    // The bot's `start failed` line said it, with its code and fix: printing it again repeats it.
    throw own.logger === undefined && logsErrors(config.logLevel) ? new LoggedFailure(error) : error;
  }
}

/** Whether a definition brings its own event source (a source, replicas), which `dev` cannot feed. */
function ownSource({ definition }: LoadedDefinition, flags: StartFlags): boolean {
  const own = definition.options;
  return own.source !== undefined || own.scale !== undefined || flags.redis !== undefined;
}

/**
 * Under `boardbot dev`, a bot that connects itself: says so, and waits until `dev` stopped the
 * process before it (two readers of one app would answer twice).
 */
async function ownGatewayAfterDev(): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) {
    throw new ConfigError('--dev-relay is for the bot process `boardbot dev` runs: start the bot without it.');
  }
  await new Promise<void>((resolve) => {
    const listener = (message: unknown) => {
      if (!isRelayMessage<ToBot>(message) || message.type !== 'boardbot:go') return;
      process.off('message', listener);
      process.channel?.unref();
      resolve();
    };
    process.on('message', listener);
    // `dev` unrefs the channel (it never keeps a stopped bot alive): held while the bot waits on it.
    process.channel?.ref();
    send({ type: 'boardbot:own-gateway' });
  });
}

/** The configuration an entry that creates the bot itself reads: `createBot` takes these from `process.env`. */
function writeEntryEnvironment(flags: StartFlags, config: CliConfig, env: NodeJS.ProcessEnv): void {
  env.BOARDBOT_TOKEN = config.token;
  env.BOARDBOT_API_URL = config.apiUrl;
  env.LOG_LEVEL = config.logLevel;
  // createBot reads these when the bot's code gives no `health` option of its own.
  if (flags.healthPort !== undefined) env.BOARDBOT_HEALTH_PORT = String(flags.healthPort);
  if (flags.healthHost !== undefined) env.BOARDBOT_HEALTH_HOST = flags.healthHost;
  // The entry's `redis()` reads it; a bot given no adapter is refused rather than run as a second reader.
  if (flags.redis !== undefined) env.BOARDBOT_REDIS_URL = flags.redis;
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
      '--host <file>',
      'run every app of this JSON file in one process ({ "apps": [{ "id", "module", "tokenEnv" }] }); SIGHUP reads it again',
    )
    .option(
      '--replica-id <id>',
      "with --host and --redis, this replica's name in Redis and in the logs (default: <hostname>-<pid>-<random>)",
    )
    .option(
      '--host-name <name>',
      "with --host and --redis, the host's name in Redis; two hosts on one Redis need two (default: host)",
    )
    .addOption(new Option('--dev-relay', 'fed by the gateway connection of `boardbot dev` (it passes this)').hideHelp())
    .option(
      '--no-gc-after-start',
      'skip the one full garbage collection that gives back the memory the start used, once the entry has loaded',
    )
    .action((flags: StartFlags) => runStart(flags, io));
}
