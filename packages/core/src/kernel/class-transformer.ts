import { createRequire } from 'node:module';

type ClassTransformer = typeof import('class-transformer');

const require = createRequire(import.meta.url);
let loaded: ClassTransformer | undefined;

/**
 * class-transformer, loaded by the first command with options or the first session read, not by
 * `start()`: a bot that is idle, or whose commands take no options, never needs it. Loaded with
 * `require`, synchronously, so a dispatch awaits nothing more for it: the package is CommonJS only
 * (no `exports` map), so this is the same module an `import` of it gives the bot's own code, with the
 * same metadata storage for its decorators.
 */
export function classTransformer(): ClassTransformer {
  loaded ??= require('class-transformer') as ClassTransformer;
  return loaded;
}
