import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// README: a fresh `npm install` prints no engine warning on any Node the project claims. npm warns
// (EBADENGINE) for every installed package whose `engines.node` the running Node does not satisfy;
// the lockfile records each package's `engines`, so checking it covers every install of this tree.
// The oldest release of each claimed line is checked (22.13: Vite, under vitest, needs 22.12+).
const CLAIMED = ['20.19.0', '22.13.0', '24.0.0'];

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } }>;
};

describe('engines', () => {
  it.each(CLAIMED)('every package of the lockfile accepts Node %s', (node) => {
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => p.engines?.node !== undefined && !semver.satisfies(node, p.engines.node))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${p.engines?.node}`);
    expect(refusing).toEqual([]);
  });

  it('every package of this repository claims the same Node versions', () => {
    const roots = Object.entries(lock.packages).filter(([path]) => path === '' || !path.includes('node_modules'));
    for (const [path, p] of roots) expect(p.engines?.node, path || 'the root').toBe('>=20.19');
  });
});
