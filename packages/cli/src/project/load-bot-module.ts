import { pathToFileURL } from 'node:url';
import type * as Core from '@boardbot/core';
import { BotModuleError } from '../errors.js';
import { type BotProject, requireBuilt, shown } from './project.js';
import { importFromProject } from './project-modules.js';

/** What `boardbot commands` needs from a bot: its handler classes, and the core that reads them. */
export interface LoadedBot {
  /** The `handlers` the bot module exports. */
  handlers: Core.BotOptions['handlers'];
  /** `@boardbot/core` as the project resolves it (the copy the decorators wrote metadata with). */
  core: typeof Core;
}

const isClassList = (value: unknown): value is unknown[] =>
  Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'function');

/** `handlers`, else `default.handlers`, else the module's only exported array of classes. */
function handlersOf(module: Record<string, unknown>): unknown {
  if (Array.isArray(module.handlers)) return module.handlers;
  const fallback = module.default as { handlers?: unknown } | undefined;
  if (fallback && typeof fallback === 'object' && fallback.handlers !== undefined) return fallback.handlers;
  // A module that names its list otherwise (`export const DICE_HANDLERS = [...]`) still works when
  // there is no doubt which list it is.
  const lists = Object.values(module).filter(isClassList);
  return lists.length === 1 ? lists[0] : undefined;
}

/**
 * Imports the built bot module and reads its handler classes, without creating or starting a bot.
 * The convention: the module (`src/bot.ts`, built to `dist/bot.js`) exports `handlers`, the array
 * given to `createBot` (or a default export with a `handlers` property, or else exactly one exported
 * array of classes under any name).
 *
 * @param project - the project; its `botModule` must be built
 */
export async function loadBotModule(project: BotProject): Promise<LoadedBot> {
  requireBuilt(project, project.botModule, 'The bot module', '--bot');
  const where = shown(project, project.botModule);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(project.botModule).href)) as Record<string, unknown>;
  } catch (error) {
    throw new BotModuleError(
      `Importing ${where} failed: ${error instanceof Error ? error.message : String(error)}. Fix the error, rebuild ` +
        '(`npm run build`) and try again.',
      error,
    );
  }
  const handlers = handlersOf(module);
  if (!Array.isArray(handlers) || handlers.some((h) => typeof h !== 'function')) {
    throw new BotModuleError(
      `${where} does not export \`handlers\`, an array of handler classes. Fix: in the bot module (src/bot.ts) ` +
        'add `export const handlers = [MyCommand, MyListener];` and pass the same array to createBot, or point ' +
        '--bot at the module that does.',
    );
  }
  const core = await importFromProject<typeof Core>(project.dir, '@boardbot/core', () => import('@boardbot/core'));
  return { handlers: handlers as Core.BotOptions['handlers'], core };
}
