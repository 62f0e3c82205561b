/**
 * The environment variables boardbot reads, each read here and nowhere else: the rest of the code is
 * given their values (see `resolveBotOptions`), so a test passes an environment instead of patching
 * `process.env`.
 */
export interface BoardbotEnvironment {
  /** The app API base URL. */
  readonly BOARDBOT_API_URL?: string | undefined;
  /** The bot's state directory. */
  readonly BOARDBOT_STATE_DIR?: string | undefined;
  /** The health endpoint's port (`boardbot start --health-port`). */
  readonly BOARDBOT_HEALTH_PORT?: string | undefined;
  /** The health endpoint's host. */
  readonly BOARDBOT_HEALTH_HOST?: string | undefined;
  /** Host names the health endpoint answers besides IP addresses and `localhost` (comma-separated, `*` for any). */
  readonly BOARDBOT_HEALTH_ALLOWED_HOSTS?: string | undefined;
  /** The Redis the replicas share (`boardbot start --redis`). */
  readonly BOARDBOT_REDIS_URL?: string | undefined;
  /** The default logger's level. */
  readonly LOG_LEVEL?: string | undefined;
  /** `production` keeps the default logger's JSON in a terminal too. */
  readonly NODE_ENV?: string | undefined;
}

/**
 * The variables of {@link BoardbotEnvironment}, read from the process now (each call reads again:
 * tests and the CLI set them before a bot is created).
 */
export function readEnvironment(): BoardbotEnvironment {
  const env = process.env;
  return {
    BOARDBOT_API_URL: env.BOARDBOT_API_URL,
    BOARDBOT_STATE_DIR: env.BOARDBOT_STATE_DIR,
    BOARDBOT_HEALTH_PORT: env.BOARDBOT_HEALTH_PORT,
    BOARDBOT_HEALTH_HOST: env.BOARDBOT_HEALTH_HOST,
    BOARDBOT_HEALTH_ALLOWED_HOSTS: env.BOARDBOT_HEALTH_ALLOWED_HOSTS,
    BOARDBOT_REDIS_URL: env.BOARDBOT_REDIS_URL,
    LOG_LEVEL: env.LOG_LEVEL,
    NODE_ENV: env.NODE_ENV,
  };
}
