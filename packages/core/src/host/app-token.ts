import { AppTokenMissingError, InvalidConfigError } from '../errors.js';
import type { AppToken } from './host-options.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Checks where an app's token comes from, before anything runs: an environment variable's name (not
 * a token written in its place) or a function.
 * @param app - the app's id
 * @param token - its token's source
 * @throws InvalidConfigError naming the app (never echoing what was given)
 */
export function checkAppToken(app: string, token: AppToken): void {
  if (typeof token === 'function') return;
  if (typeof token !== 'object' || token === null || typeof token.env !== 'string' || !ENV_NAME.test(token.env)) {
    throw new InvalidConfigError(
      `The app ${JSON.stringify(app)} needs token: { env: 'VARIABLE_NAME' } (an environment variable's name) or a ` +
        'function that resolves the token; a token itself is never given in the configuration.',
    );
  }
}

/**
 * Reads an app's token now: from its environment variable, or its resolver.
 * @param app - the app's id
 * @param token - its token's source
 * @param env - the environment @defaultValue `process.env`
 * @throws AppTokenMissingError when there is none (the message names the variable, never a value)
 */
export async function resolveAppToken(
  app: string,
  token: AppToken,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string> {
  if (typeof token !== 'function') {
    const value = env[token.env]?.trim();
    if (!value) throw new AppTokenMissingError(app, `the environment variable ${token.env} is not set`);
    return value;
  }
  let value: unknown;
  try {
    value = await token(app);
  } catch (error) {
    throw new AppTokenMissingError(app, 'its token resolver failed', error);
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AppTokenMissingError(app, 'its token resolver gave no token');
  }
  return value.trim();
}
