import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Core from '@boardbot/core';
import type * as Redis from '@boardbot/redis';
import { type HostAppConfig, readHostConfig } from '../config/host-config.js';
import { type CliConfig, loadConfig } from '../config/load-config.js';
import { BotModuleError, ConfigError } from '../errors.js';
import type { CliIo } from '../io.js';
import { loadOptional } from '../project/optional-package.js';
import { importFromProject } from '../project/project-modules.js';
import type { CommonFlags } from './shared-options.js';

/** Flags of `boardbot start --host <file>`. */
export interface HostStartFlags extends CommonFlags {
  /** `--host <file>`: the host's JSON file, `{ "apps": [{ "id", "module", "tokenEnv" }] }`. */
  host: string;
  /** `--health-port`: serve `/healthz`, `/readyz` and `/metrics` there, for every app (`BOARDBOT_HEALTH_PORT`). */
  healthPort?: number | undefined;
  /** `--health-host`: the interface of the health endpoint (`BOARDBOT_HEALTH_HOST`). @defaultValue `127.0.0.1` */
  healthHost?: string | undefined;
  /**
   * `--redis <url>` (else `BOARDBOT_REDIS_URL`): run as one replica of several sharing this Redis: of
   * the host (`redisHost()` of `@boardbot/redis`, the apps spread over the replicas), else of the bot
   * (a `redis({ url })` adapter for a bot started from its definition; `BOARDBOT_REDIS_URL` for an entry).
   */
  redis?: string | undefined;
  /** `--replica-id <id>`: with `--redis`, this replica's name in Redis and in the logs. @defaultValue `<hostname>-<pid>-<random>` */
  replicaId?: string | undefined;
  /** `--host-name <name>`: with `--redis`, the host's name in Redis; two hosts on one Redis need two. @defaultValue `host` */
  hostName?: string | undefined;
}

/** What the host was started with, to tell at `SIGHUP` what changed. */
interface Loaded {
  config: CliConfig;
  apps: HostAppConfig[];
  /** Each app's token now (never logged): from the environment, else `.env`. */
  tokens: Map<string, string | undefined>;
}

/**
 * `boardbot start --host <file>`: runs every app the file lists in one process (`createHost` of the
 * project's `@boardbot/core`), each with its token from the variable it names (the environment,
 * else `.env`). `SIGHUP` reads the file and `.env` again: an app no longer listed is removed, a new
 * one added, one whose module or variable changed replaced, one whose token changed re-tokened. A
 * file that no longer reads is logged and changes nothing. SIGINT and SIGTERM stop every app. With
 * `--redis` (else `BOARDBOT_REDIS_URL`), it is one replica of the host over Redis (`redisHost()`):
 * the apps are spread over the replicas, and those of a replica that dies move to the others.
 *
 * @param flags - `--host`, the configuration flags, the health endpoint and the replicas' Redis
 * @param io - output and environment
 */
export async function runHostStart(flags: HostStartFlags, io: CliIo): Promise<void> {
  const cwd = flags.cwd ?? io.cwd ?? process.cwd();
  const file = resolve(cwd, flags.host);
  const read = (): Loaded => {
    const config = loadConfig(flags, io.env, cwd);
    const apps = readHostConfig(file);
    const tokens = new Map(apps.map((a) => [a.id, io.env[a.tokenEnv] || config.fileValues[a.tokenEnv]]));
    return { config, apps, tokens };
  };
  let current = read();
  const { config } = current;
  const core = await importFromProject<typeof Core>(cwd, '@boardbot/core', () => import('@boardbot/core'));
  const app = (a: HostAppConfig): Core.HostedAppDefinition => ({
    id: a.id,
    bot: () => loadApp(core, resolve(dirname(file), a.module)),
    token: (id) => current.tokens.get(id) ?? '',
  });
  const health =
    flags.healthPort === undefined
      ? undefined
      : { port: flags.healthPort, ...(flags.healthHost !== undefined && { host: flags.healthHost }) };
  const redisUrl = flags.redis ?? (io.env.BOARDBOT_REDIS_URL || config.fileValues.BOARDBOT_REDIS_URL || undefined);
  if (redisUrl === undefined && (flags.replicaId !== undefined || flags.hostName !== undefined)) {
    throw new ConfigError('--replica-id and --host-name name a replica of the host on Redis: add --redis <url>.');
  }
  const scale =
    redisUrl === undefined
      ? undefined
      : (await loadOptional<typeof Redis>('@boardbot/redis', '--redis')).redisHost({
          url: redisUrl,
          ...(flags.replicaId !== undefined && { replicaId: flags.replicaId }),
          ...(flags.hostName !== undefined && { hostName: flags.hostName }),
        });
  const host = core.createHost(
    {
      logger: { level: config.logLevel },
      defaults: { apiUrl: config.apiUrl },
      ...(health && { health }),
      ...(scale && { scale }),
    },
    current.apps.map(app),
  );
  await host.start();
  process.on('SIGHUP', () => {
    void reload().catch((error: unknown) => host.log.error({ err: error }, 'SIGHUP: the host file was not applied'));
  });

  async function reload(): Promise<void> {
    const before = current;
    current = read();
    const was = new Map(before.apps.map((a) => [a.id, a]));
    const now = new Map(current.apps.map((a) => [a.id, a]));
    for (const id of was.keys()) if (!now.has(id)) await host.remove(id);
    for (const [id, a] of now) {
      const old = was.get(id);
      if (old && (old.module !== a.module || old.tokenEnv !== a.tokenEnv)) await host.remove(id);
      if (!old || old.module !== a.module || old.tokenEnv !== a.tokenEnv) await host.add(app(a));
      else if (before.tokens.get(id) !== current.tokens.get(id)) await host.retoken(id);
    }
    host.log.info({ apps: host.status().map((s) => `${s.id}:${s.state}`) }, 'SIGHUP: host file applied');
  }
}

/** The app's definition: its module's default export, which must be one (`export default defineBot(...)`). */
async function loadApp(core: typeof Core, path: string): Promise<Core.BotDefinition> {
  const module = (await import(pathToFileURL(path).href)) as { default?: unknown };
  if (!core.isBotDefinition(module.default)) {
    throw new BotModuleError(
      `${path} does not default-export a bot definition: export default defineBot({ handlers }).`,
    );
  }
  return module.default;
}
