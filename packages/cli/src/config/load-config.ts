import { resolve } from 'node:path';
import { DEFAULT_BOT_OPTIONS } from '@boardbot/core';
import { ConfigError } from '../errors.js';
import { readEnvFile } from './env-file.js';

/** Where a configuration value came from, for messages ("BOARDBOT_API_URL from .env is not a URL"). */
export type ConfigSource = 'flag' | 'env' | '.env' | 'default';

/** The configuration flags every command that talks to a bot or the platform accepts. */
export interface ConfigFlags {
  /** `--token`: the app token. */
  token?: string | undefined;
  /** `--api-url`: the app API base URL. */
  apiUrl?: string | undefined;
  /** `--log-level`: the bot's log level. */
  logLevel?: string | undefined;
  /** `--env-file`: the `.env` file to read. @defaultValue `.env` in the project directory, if it exists */
  envFile?: string | undefined;
}

/** The resolved configuration: flags > environment > `.env` > defaults. */
export interface CliConfig {
  /** `BOARDBOT_TOKEN`; undefined when none is configured. Never printed. */
  token: string | undefined;
  /** `BOARDBOT_API_URL`. @defaultValue `'http://127.0.0.1:8787/api/v1'` (the emulator) */
  apiUrl: string;
  /** `LOG_LEVEL`. @defaultValue `'info'` */
  logLevel: string;
  /** `BOARDBOT_ADMIN_KEY`, the emulator's admin key; undefined for a random one. */
  adminKey: string | undefined;
  /** Where each value came from. */
  sources: { token: ConfigSource; apiUrl: ConfigSource; logLevel: ConfigSource; adminKey: ConfigSource };
  /** The `.env` file that was read, if any. */
  envFile: string | undefined;
  /** Every value of that file (also the bot's own settings), to hand on to the bot. */
  fileValues: Record<string, string>;
}

/** Defaults of {@link CliConfig}. */
export const DEFAULT_CLI_CONFIG = {
  apiUrl: DEFAULT_BOT_OPTIONS.apiUrl,
  logLevel: 'info',
  envFile: '.env',
} as const satisfies Pick<Required<ConfigFlags>, 'apiUrl' | 'logLevel' | 'envFile'>;

/** pino's levels, which `LOG_LEVEL` must name. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The environment variables the CLI reads, and the flag that wins over each. */
export const CONFIG_KEYS = {
  token: { env: 'BOARDBOT_TOKEN', flag: '--token' },
  apiUrl: { env: 'BOARDBOT_API_URL', flag: '--api-url' },
  logLevel: { env: 'LOG_LEVEL', flag: '--log-level' },
  adminKey: { env: 'BOARDBOT_ADMIN_KEY', flag: '--admin-key' },
} as const;

function pick(
  key: keyof typeof CONFIG_KEYS,
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  file: Record<string, string>,
): { value: string | undefined; source: ConfigSource } {
  const name = CONFIG_KEYS[key].env;
  // An empty variable counts as unset, as `FOO= boardbot start` usually means "no value".
  if (flag !== undefined && flag !== '') return { value: flag, source: 'flag' };
  if (env[name]) return { value: env[name], source: 'env' };
  if (file[name]) return { value: file[name], source: '.env' };
  return { value: undefined, source: 'default' };
}

function describe(key: keyof typeof CONFIG_KEYS, source: ConfigSource): string {
  const { env, flag } = CONFIG_KEYS[key];
  return source === 'flag' ? flag : source === '.env' ? `${env} in .env` : env;
}

/**
 * Resolves the configuration of one command: each value from its flag, else the environment, else
 * the `.env` file, else the default; then checks it, so a typo fails before anything starts.
 *
 * @param flags - the command's flags
 * @param env - the environment (`process.env`)
 * @param cwd - the project directory, where `.env` is looked for
 */
export function loadConfig(
  flags: ConfigFlags & { adminKey?: string | undefined },
  env: NodeJS.ProcessEnv,
  cwd: string,
): CliConfig {
  const envFile = resolve(cwd, flags.envFile ?? DEFAULT_CLI_CONFIG.envFile);
  const fileValues = readEnvFile(envFile, flags.envFile !== undefined);
  const file = fileValues ?? {};
  const token = pick('token', flags.token, env, file);
  const apiUrl = pick('apiUrl', flags.apiUrl, env, file);
  const logLevel = pick('logLevel', flags.logLevel, env, file);
  const adminKey = pick('adminKey', flags.adminKey, env, file);
  const config: CliConfig = {
    token: token.value,
    apiUrl: (apiUrl.value ?? DEFAULT_CLI_CONFIG.apiUrl).replace(/\/+$/, ''),
    logLevel: logLevel.value ?? DEFAULT_CLI_CONFIG.logLevel,
    adminKey: adminKey.value,
    sources: { token: token.source, apiUrl: apiUrl.source, logLevel: logLevel.source, adminKey: adminKey.source },
    envFile: fileValues ? envFile : undefined,
    fileValues: file,
  };
  checkConfig(config);
  return config;
}

function checkConfig(config: CliConfig): void {
  let url: URL | undefined;
  try {
    url = new URL(config.apiUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ConfigError(
      `${describe('apiUrl', config.sources.apiUrl)} is not an http(s) URL: "${config.apiUrl}". ` +
        `Expected the app API base URL, e.g. ${DEFAULT_CLI_CONFIG.apiUrl}.`,
    );
  }
  if (!(LOG_LEVELS as readonly string[]).includes(config.logLevel)) {
    throw new ConfigError(
      `${describe('logLevel', config.sources.logLevel)} is "${config.logLevel}"; expected one of ${LOG_LEVELS.join(', ')}.`,
    );
  }
  if (config.token !== undefined && /\s/.test(config.token)) {
    // Never echo the token: say where it came from only.
    throw new ConfigError(
      `${describe('token', config.sources.token)} contains whitespace; an app token is one opaque word. Check for a stray space or line break.`,
    );
  }
}
