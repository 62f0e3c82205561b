import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CreateBoardbotError } from './errors.js';
import { type PackageSource, projectPackageJson } from './package-json.js';
import { renderTemplates } from './templates.js';

/** npm's rule for a package name (lowercase, URL-safe), which the directory name becomes. */
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/** Options of {@link scaffold}. */
export interface ScaffoldOptions {
  /** The project directory to create (its last segment is the package name). */
  target: string;
  /** Where the `@boardbot/*` packages come from. @defaultValue the registry */
  source?: PackageSource;
}

/** What {@link scaffold} wrote. */
export interface ScaffoldResult {
  /** The absolute project directory. */
  dir: string;
  /** The package name. */
  name: string;
  /** The files written, relative to `dir`. */
  files: string[];
}

/**
 * Writes a new bot project: the templates (TypeScript with decorators configured, `src/main.ts`,
 * `src/bot.ts`, a command with an options class, a message listener, a test with the harness,
 * `.env.example`, a README, `.gitignore`) and its package.json. Refuses a non-empty directory, so
 * it never overwrites anything.
 *
 * @param options - see {@link ScaffoldOptions}
 */
export function scaffold(options: ScaffoldOptions): ScaffoldResult {
  const dir = resolve(options.target);
  const name = basename(dir).toLowerCase();
  if (!PACKAGE_NAME.test(name) || name.length > 214) {
    throw new CreateBoardbotError(
      'BOARDBOT_CREATE_USAGE',
      `"${basename(dir)}" cannot be a package name. Fix: use lowercase letters, digits, "-", "_" and ".", e.g. my-bot.`,
    );
  }
  let existing: string[] = [];
  try {
    existing = readdirSync(dir);
  } catch {
    existing = [];
  }
  if (existing.length > 0) {
    throw new CreateBoardbotError(
      'BOARDBOT_CREATE_TARGET_EXISTS',
      `${dir} already exists and is not empty. Fix: choose another name, or empty the directory.`,
    );
  }
  const files = renderTemplates({ name });
  const pkg = projectPackageJson(name, options.source ?? { kind: 'registry' });
  files.push({ path: 'package.json', text: `${JSON.stringify(pkg, null, 2)}\n` });
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
  }
  return { dir, name, files: files.map((f) => f.path).sort() };
}
