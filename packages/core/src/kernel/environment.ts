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

/** Every variable's name; the compiler checks them against {@link BoardbotEnvironment}. */
const NAMES = Object.keys({
  ...{ BOARDBOT_API_URL: true, BOARDBOT_STATE_DIR: true, BOARDBOT_HEALTH_PORT: true, BOARDBOT_HEALTH_HOST: true },
  ...{ BOARDBOT_HEALTH_ALLOWED_HOSTS: true, BOARDBOT_REDIS_URL: true, LOG_LEVEL: true, NODE_ENV: true },
} satisfies Record<keyof BoardbotEnvironment, true>);

/**
 * The variables of {@link BoardbotEnvironment}, read from the process now (each call reads again:
 * tests and the CLI set them before a bot is created).
 */
export function readEnvironment(): BoardbotEnvironment {
  return Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
}
