import type * as Redis from '@boardbot/redis';
import type { CliConfig } from '../config/load-config.js';
import type { LoadedDefinition } from '../project/load-bot-module.js';
import { loadOptional } from '../project/optional-package.js';

/** What `boardbot start` gives a bot it creates from its definition, besides the configuration. */
export interface DefinitionStart {
  /** `--health-port` and `--health-host`. */
  healthPort?: number | undefined;
  healthHost?: string | undefined;
  /** `--redis`, else `BOARDBOT_REDIS_URL`: the Redis the replicas share. */
  redisUrl?: string | undefined;
}

/**
 * Creates the bot from its definition and starts it, giving it the CLI's configuration as options
 * (never through `process.env`): the token and the API URL, the log level, the health endpoint and
 * a replica adapter, each unless the definition set it itself. The runtime then owns the process's
 * signals, as a bot's entry would.
 *
 * @param loaded - the definition and the project's core
 * @param config - the resolved configuration (flags, environment, `.env`)
 * @param start - the health flags and the Redis URL
 */
export async function startDefinition(
  { definition, core }: LoadedDefinition,
  config: CliConfig,
  start: DefinitionStart,
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
  });
  await bot.start();
}
