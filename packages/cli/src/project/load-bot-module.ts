import { existsSync } from 'node:fs';
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

/** A bot's definition, with the core that made it (the project's copy, which creates the bot). */
export interface LoadedDefinition {
  definition: Core.BotDefinition;
  core: typeof Core;
}

const isClassList = (value: unknown): value is unknown[] =>
  Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'function');

/** `handlers`, else `default.handlers` (a definition's too), else the module's only exported array of classes. */
function handlersOf(module: Record<string, unknown>): unknown {
  if (Array.isArray(module.handlers)) return module.handlers;
  const fallback = module.default as { handlers?: unknown } | undefined;
  if (fallback && typeof fallback === 'object' && fallback.handlers !== undefined) return fallback.handlers;
  // A module that names its list otherwise (`export const DICE_HANDLERS = [...]`) still works when
  // there is no doubt which list it is.
  const lists = Object.values(module).filter(isClassList);
  return lists.length === 1 ? lists[0] : undefined;
}

/** Imports the built bot module, saying how to fix it when it throws. */
async function importBotModule(project: BotProject): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(project.botModule).href)) as Record<string, unknown>;
  } catch (error) {
    throw new BotModuleError(
      `Importing ${shown(project, project.botModule)} failed: ${error instanceof Error ? error.message : String(error)}. ` +
        'Fix the error, rebuild (`npm run build`) and try again.',
      error,
    );
  }
}

/** `@boardbot/core` as the project resolves it. */
function projectCore(project: BotProject): Promise<typeof Core> {
  return importFromProject<typeof Core>(project.dir, '@boardbot/core', () => import('@boardbot/core'));
}

/**
 * Imports the built bot module and reads its handler classes, without creating or starting a bot.
 * The convention: the module (`src/bot.ts`, built to `dist/bot.js`) default-exports the bot's
 * definition (`export default defineBot({ handlers })`), or exports `handlers`, the array given to
 * `createBot` (or else exactly one exported array of classes under any name).
 *
 * @param project - the project; its `botModule` must be built
 */
export async function loadBotModule(project: BotProject): Promise<LoadedBot> {
  requireBuilt(project, project.botModule, 'The bot module', '--bot');
  const handlers = handlersOf(await importBotModule(project));
  if (!Array.isArray(handlers) || handlers.some((h) => typeof h !== 'function')) {
    throw new BotModuleError(
      `${shown(project, project.botModule)} does not export \`handlers\`, an array of handler classes. Fix: in the bot ` +
        'module (src/bot.ts) add `export default defineBot({ handlers: [MyCommand, MyListener] })` (or `export const ' +
        'handlers = [...]` given to createBot), or point --bot at the module that does.',
    );
  }
  return { handlers: handlers as Core.BotOptions['handlers'], core: await projectCore(project) };
}

/**
 * The bot's definition, when the built bot module default-exports one (`export default
 * defineBot({...})`): `boardbot start` then creates the bot from it. Undefined when there is no bot
 * module, or it exports none (a bot whose entry creates it itself).
 *
 * @param project - the project
 */
export async function loadDefinition(project: BotProject): Promise<LoadedDefinition | undefined> {
  if (!existsSync(project.botModule)) return undefined;
  const exported = (await importBotModule(project)).default;
  const core = await projectCore(project);
  // A core from before definitions has no isBotDefinition: its bots create themselves.
  return core.isBotDefinition?.(exported) ? { definition: exported, core } : undefined;
}
