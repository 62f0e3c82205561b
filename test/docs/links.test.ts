import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// A page that moves or is renamed must not leave dead links behind in the docs or the READMEs.
const root = new URL('../../', import.meta.url).pathname;

function markdown(): string[] {
  const under = (dir: string) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('README.md') || (dir === 'docs' && f.endsWith('.md')))
      .filter((f) => !f.includes('node_modules') && !f.includes('templates'))
      .map((f) => join(root, dir, f));
  return [join(root, 'README.md'), ...under('docs'), ...under('packages'), ...under('examples')];
}

describe('links in the docs', () => {
  it('point at files that exist', () => {
    const dead: string[] = [];
    const files = markdown();
    for (const file of files) {
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (!target || /^[a-z]+:/i.test(target)) continue;
        if (!existsSync(join(dirname(file), target))) dead.push(`${relative(root, file)} → ${target}`);
      }
    }
    expect(files.length).toBeGreaterThan(10);
    expect(dead).toEqual([]);
  });
});
