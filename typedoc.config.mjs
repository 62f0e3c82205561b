// The API reference: `npm run docs` writes a TypeDoc site of every public entry point to docs-api/
// (gitignored). The entry points are API Extractor's (`scripts/api-report.mjs`: each package's
// `exports` less `./internal`), documented from their sources; `@boardbot/*` imports resolve to the
// sources too, so a type of one package links to its page in another's. A broken `{@link}` or a
// page that links nowhere fails the build (test/docs/api-reference.test.ts runs it).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicEntryPoints } from './scripts/api-report.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
/** `./dist/a/b.d.ts` or `./dist/a/b.js` → `src/a/b.ts`, relative to the repository. */
const source = (dir, built) =>
  relative(root, join(dir, built.replace(/^\.?\/?dist\//, 'src/').replace(/\.d\.ts$|\.js$/, '.ts')));

/** Every `@boardbot/*` specifier (internal ones too: sources import them) → its source file. */
const paths = Object.fromEntries(
  readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => {
      const dir = join(root, 'packages', d.name);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return Object.entries(pkg.exports ?? {})
        .filter(([, target]) => typeof target === 'object' && target.types)
        .map(([subpath, target]) => [
          subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
          [source(dir, target.types)],
        ]);
    }),
);

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'boardbot API reference',
  entryPoints: publicEntryPoints().map((entry) => source(entry.dir, relative(entry.dir, entry.types))),
  tsconfig: 'tsconfig.docs.json',
  compilerOptions: { baseUrl: '.', paths },
  plugin: ['./scripts/typedoc-module-names.mjs'],
  out: 'docs-api',
  readme: 'none',
  excludeInternal: true,
  excludePrivate: true,
  skipErrorChecking: true,
  githubPages: false,
  // No source links: the repository's place is a placeholder until it is published, and a clone's
  // remote (if any) is not a web address.
  disableSources: true,
  validation: { notExported: false, invalidLink: true, rewrittenLink: true, notDocumented: false },
  treatWarningsAsErrors: true,
  treatValidationWarningsAsErrors: true,
};
