import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';

/** One app of `boardbot start --host <file>`: its id, its built bot module, its token's variable. */
export interface HostAppConfig {
  /** The app's id in the host (logs, metrics, `/readyz?app=`, its state folder). */
  id: string;
  /** The built module whose default export is the app's definition (`defineBot`), relative to the file. */
  module: string;
  /** The environment variable (or `.env` key) that holds the app's token. Never the token itself. */
  tokenEnv: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEYS = ['id', 'module', 'tokenEnv'];

/**
 * Reads a host's configuration: `{ "apps": [{ "id", "module", "tokenEnv" }] }`. A token written in
 * it is refused, without being echoed: tokens come from the environment.
 * @param path - the JSON file
 * @throws ConfigError naming the file and what is wrong
 */
export function readHostConfig(path: string): HostAppConfig[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`--host ${path} is not a readable JSON file: ${error instanceof Error ? error.message : ''}`);
  }
  const apps = (parsed as { apps?: unknown } | null)?.apps;
  if (!Array.isArray(apps))
    throw new ConfigError(`--host ${path} must be { "apps": [{ "id", "module", "tokenEnv" }] }.`);
  return apps.map((app: unknown, i) => {
    const entry = (app ?? {}) as Record<string, unknown>;
    const extra = Object.keys(entry).filter((key) => !KEYS.includes(key));
    if (extra.length > 0) {
      throw new ConfigError(
        `--host ${path}: apps[${i}] has ${extra.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}; an app has only id, module and tokenEnv (a token is never written in the file: name its variable in tokenEnv).`,
      );
    }
    const { id, module, tokenEnv } = entry;
    if (
      typeof id !== 'string' ||
      typeof module !== 'string' ||
      typeof tokenEnv !== 'string' ||
      !ENV_NAME.test(tokenEnv)
    ) {
      throw new ConfigError(
        `--host ${path}: apps[${i}] needs "id", "module" (the built bot module) and "tokenEnv" (the name of the variable holding its token).`,
      );
    }
    return { id, module, tokenEnv };
  });
}
