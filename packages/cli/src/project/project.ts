import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ProjectError } from '../errors.js';

/** Where a bot project keeps what the CLI needs; every path can be changed by a flag. */
export interface ProjectFlags {
  /** `--entry`: the built file that starts the bot. */
  entry?: string | undefined;
  /** `--bot`: the built bot module that exports the handlers. */
  bot?: string | undefined;
  /** `--tsconfig`: the TypeScript project `boardbot dev` compiles. */
  tsconfig?: string | undefined;
}

/** A bot project, as the CLI sees it (absolute paths). */
export interface BotProject {
  /** The project directory. */
  dir: string;
  /**
   * The built entry that creates and starts the bot (run by `dev` and `start`): `--entry`, else
   * package.json `main`, else `dist/main.js`.
   */
  entry: string;
  /** The built module whose `handlers` export `commands` reads: `--bot`, else `dist/bot.js`. */
  botModule: string;
  /** The tsconfig `dev` compiles: `--tsconfig`, else `tsconfig.json`. */
  tsconfig: string;
}

/** Defaults of {@link ProjectFlags}, relative to the project directory. */
export const DEFAULT_PROJECT_PATHS = {
  entry: 'dist/main.js',
  bot: 'dist/bot.js',
  tsconfig: 'tsconfig.json',
} as const satisfies Required<{ [K in keyof ProjectFlags]: string }>;

function packageMain(dir: string): string | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    const main = (JSON.parse(readFileSync(file, 'utf8')) as { main?: unknown }).main;
    return typeof main === 'string' && main !== '' ? main : undefined;
  } catch (error) {
    throw new ProjectError(`${file} is not valid JSON (${(error as Error).message}). Fix the file.`);
  }
}

/**
 * Finds the project's files from the flags and the conventions (`dist/main.js`, `dist/bot.js`,
 * `tsconfig.json`). Nothing is required to exist yet: each command checks what it needs.
 *
 * @param flags - the command's path flags
 * @param cwd - the project directory
 */
export function resolveProject(flags: ProjectFlags, cwd: string): BotProject {
  const dir = resolve(cwd);
  return {
    dir,
    entry: resolve(dir, flags.entry ?? packageMain(dir) ?? DEFAULT_PROJECT_PATHS.entry),
    botModule: resolve(dir, flags.bot ?? DEFAULT_PROJECT_PATHS.bot),
    tsconfig: resolve(dir, flags.tsconfig ?? DEFAULT_PROJECT_PATHS.tsconfig),
  };
}

/** A path relative to the project, for messages. */
export function shown(project: BotProject, path: string): string {
  const rel = relative(project.dir, path);
  return rel.startsWith('..') ? path : rel;
}

/**
 * Throws a {@link ProjectError} that says how to build the project when a built file is missing.
 *
 * @param project - the project
 * @param path - the built file
 * @param what - what the file is, e.g. `the bot's entry`
 * @param flag - the flag that points elsewhere, e.g. `--entry`
 */
export function requireBuilt(project: BotProject, path: string, what: string, flag: string): void {
  if (existsSync(path)) return;
  throw new ProjectError(
    `${what} ${shown(project, path)} does not exist in ${project.dir}. Fix: build the project first ` +
      `(\`npm run build\`), run the command in your bot's directory, or pass ${flag} <file>.`,
  );
}
