import { ConfigError } from '../errors.js';

/**
 * Imports a package the CLI declares as an optional peer (`@boardbot/redis`, `@boardbot/mcp`) when a
 * command needs it, saying how to install it when it is missing.
 * @param name - the package
 * @param what - what needs it, for the message (`--redis`, `boardbot mcp`)
 */
export async function loadOptional<T>(name: string, what: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new ConfigError(`${what} needs ${name}: npm install ${name}`);
  }
}
