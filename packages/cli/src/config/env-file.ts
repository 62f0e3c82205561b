import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError } from '../errors.js';

/**
 * Reads a `.env` file with Node's own parser (`util.parseEnv`, the one behind `--env-file`), so the
 * syntax is exactly Node's: `KEY=value`, quotes, `#` comments, `export` prefixes.
 *
 * @param path - the file
 * @param required - whether a missing file is an error (an explicit `--env-file`) or just no values
 * @returns the values, or `undefined` when an optional file does not exist
 */
export function readEnvFile(path: string, required: boolean): Record<string, string> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return undefined;
    throw new ConfigError(
      code === 'ENOENT'
        ? `The env file ${path} does not exist. Fix: create it (copy .env.example) or drop --env-file.`
        : `The env file ${path} cannot be read (${code ?? String(error)}).`,
    );
  }
  const values = parseEnv(text) as Record<string, string | undefined>;
  return Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined));
}
