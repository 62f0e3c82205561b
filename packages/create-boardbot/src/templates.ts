import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownPackage } from './own-package.js';

/** The template directory shipped with the package (beside `dist/`). */
export const TEMPLATE_DIR = fileURLToPath(new URL('../templates/', import.meta.url));

// npm never publishes a file named .gitignore and drops .env-like files, so they ship with a
// leading underscore and get their real name when written.
const RENAMES: Record<string, string> = { _gitignore: '.gitignore', '_env.example': '.env.example' };

/** One file of a new project. */
export interface TemplateFile {
  /** Path relative to the project, with `/` separators. */
  path: string;
  text: string;
}

/**
 * Reads every template file, renamed, with `{{name}}` replaced and `{{repository}}` by the boardbot
 * repository's address from create-boardbot's own package.json (one place: the root package.json's
 * `repository`, copied there by `npm run sync-repository`).
 *
 * @param values - placeholder values
 * @param dir - the template directory
 */
export function renderTemplates(values: { name: string }, dir: string = TEMPLATE_DIR): TemplateFile[] {
  const { repository } = ownPackage();
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return files
    .map((entry) => {
      const source = join(entry.parentPath, entry.name);
      const path = relative(dir, source).split('\\').join('/');
      const renamed = path
        .split('/')
        .map((part) => RENAMES[part] ?? part)
        .join('/');
      return {
        path: renamed,
        text: readFileSync(source, 'utf8').replaceAll('{{name}}', values.name).replaceAll('{{repository}}', repository),
      };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}
