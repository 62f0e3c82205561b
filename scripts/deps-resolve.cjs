// How dependency-cruiser resolves the repository's own packages (`npm run deps`): each entry point of a
// package's `exports` map (`@boardbot/core`, `@boardbot/core/internal`...) to the source file its build
// comes from, as vitest.config.ts does for the tests. So an import of another package is an arrow
// between two source files, and the rules see the arrows between packages (a circle through two
// packages, an import of another package's internal entry) as they see those inside one.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const alias = {};
for (const dir of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
  if (!dir.isDirectory()) continue;
  const pkg = JSON.parse(readFileSync(join(root, 'packages', dir.name, 'package.json'), 'utf8'));
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    const built = typeof target === 'string' ? target : target.default;
    if (!built?.startsWith('./dist/') || !built.endsWith('.js')) continue;
    const name = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    alias[`${name}$`] = join(root, 'packages', dir.name, 'src', `${built.slice('./dist/'.length, -'.js'.length)}.ts`);
  }
}

module.exports = { resolve: { alias } };
