import { createRequire } from 'node:module';

// The matchers' dependencies (re2js, recheck) are loaded through `require`, on first use only: a bot
// that declares no regular expression never reads them, and the one that does can load re2js
// synchronously, where a listener is declared.
const requireHere = createRequire(import.meta.url);

/**
 * Loads a dependency of the matchers, on first use.
 * @param name - the package, resolved from `@boardbot/core`
 */
export function loadOptional<T>(name: string): T {
  return requireHere(name) as T;
}

/**
 * Where a dependency of the matchers is, without loading it (for the checker's worker).
 * @param name - the package or one of its files
 */
export function resolveOptional(name: string): string {
  return requireHere.resolve(name);
}
