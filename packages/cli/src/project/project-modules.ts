import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Imports a package as the project sees it (its own `node_modules`), falling back to the CLI's copy.
 * The project's copy matters: `@boardbot/core` must be the one the bot's decorators wrote their
 * metadata with, and `typescript` the version the project chose.
 *
 * @param projectDir - the bot project directory
 * @param specifier - a bare package name, e.g. `typescript`
 * @param fallback - imports the CLI's own copy
 * @returns the module namespace (a CommonJS package's value is its `default`)
 */
export async function importFromProject<T>(
  projectDir: string,
  specifier: string,
  fallback: () => Promise<T>,
): Promise<T> {
  let resolved: string | undefined;
  try {
    resolved = createRequire(join(projectDir, 'package.json')).resolve(specifier);
  } catch {
    resolved = undefined;
  }
  if (resolved === undefined) return fallback();
  return (await import(pathToFileURL(resolved).href)) as T;
}
